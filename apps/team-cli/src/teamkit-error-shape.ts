import type { TeamkitError } from '@teamkit/team-core';

// The same global marker `isTeamkitError` checks; read here so printing an error does not load team-core.
const marker = Symbol.for('@teamkit/team-core/error');

/** True when `value` is a TeamkitError from any copy of team-core, without importing it. */
export function looksLikeTeamkitError(value: unknown): value is TeamkitError {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { [marker]?: unknown })[marker] === true
  );
}
