import { errorMessage, isTeamkitError } from '../../errors/index.js';
import type { RunMember, RuntimeState } from '../../schema/index.js';
import { requireHostCapability, type TeamHostV1 } from '../team-host.js';

/** What stopping one member's session came to. */
export type SessionStopOutcome =
  /** The member has no session of its own (never started, or it is the caller's lead session). */
  | { kind: 'none' }
  /** The session was stopped, or had already ended. */
  | { kind: 'stopped' }
  /** The session may still run: the host cannot stop sessions, or stopping failed. */
  | { kind: 'not-stopped'; reason: string; code: string };

/** The stable code of a thrown value: its Teamkit code, else `INTERNAL`. */
export function codeOf(error: unknown): string {
  return isTeamkitError(error) ? error.code : 'INTERNAL';
}

/**
 * Stops a session through the host's `stopMember`. A host without it gets the typed
 * `HOST_CAPABILITY_UNSUPPORTED` as the reason, unless the session is already gone.
 */
export async function stopSession(
  host: TeamHostV1,
  sessionId: string,
): Promise<SessionStopOutcome> {
  let stop: NonNullable<TeamHostV1['stopMember']>;
  try {
    stop = requireHostCapability(host, 'stopMember');
  } catch (unsupported) {
    let alive: boolean;
    try {
      alive = await host.isAlive(sessionId);
    } catch (probe) {
      return {
        kind: 'not-stopped',
        reason: `${errorMessage(unsupported)} (and asking whether it lives failed: ${errorMessage(probe)})`,
        code: codeOf(unsupported),
      };
    }
    return alive
      ? { kind: 'not-stopped', reason: errorMessage(unsupported), code: codeOf(unsupported) }
      : { kind: 'stopped' };
  }
  try {
    await stop(sessionId);
    return { kind: 'stopped' };
  } catch (error) {
    return { kind: 'not-stopped', reason: errorMessage(error), code: codeOf(error) };
  }
}

/** Stops a member's own session; the lead's session that the caller brought is never stopped. */
export function stopMemberSession(
  host: TeamHostV1,
  state: RuntimeState,
  member: RunMember,
): Promise<SessionStopOutcome> {
  if (member.sessionId === undefined || member.sessionId === state.leadSessionId)
    return Promise.resolve({ kind: 'none' });
  return stopSession(host, member.sessionId);
}
