import { isTeamkitError, type TeamkitError } from '../errors/index.js';

/** The `TeamkitError` that `promise` rejects with; any other outcome fails the test. */
export async function caughtTeamkitError(promise: Promise<unknown>): Promise<TeamkitError> {
  try {
    await promise;
  } catch (error) {
    if (isTeamkitError(error)) return error;
    throw error;
  }
  throw new Error('expected a TeamkitError');
}
