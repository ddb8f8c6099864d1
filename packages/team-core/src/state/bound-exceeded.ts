import { TeamkitError } from '../errors/index.js';
import type { RunBounds } from '../schema/team-spec.js';

/** Builds a `BOUND_EXCEEDED` error naming the bound, its limit and the value it would reach. */
export function boundExceeded(
  bound: keyof RunBounds,
  limit: number,
  value: number,
  what: string,
): TeamkitError {
  return new TeamkitError(
    'BOUND_EXCEEDED',
    `${what}: the run bound ${bound}=${limit} would be passed (${value}). Raise it in the team's policy.yaml or finish the run.`,
    { details: { bound, limit, value } },
  );
}
