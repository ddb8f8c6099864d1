import type { TeamkitErrorKind } from '@teamkit/team-core';
import { isTeamkitError } from '@teamkit/team-core/errors';
import { UsageError } from './usage-error.js';

export { UsageError } from './usage-error.js';

/** Exit codes of the `team` command, one per kind of failure. */
export const EXIT_CODES = {
  ok: 0,
  internal: 1,
  usage: 2,
  not_found: 3,
  conflict: 4,
  refused: 5,
} as const satisfies Record<TeamkitErrorKind | 'ok', number>;

/**
 * The one place that maps an error to an exit code: a TeamkitError by its kind,
 * a command-line parsing error as usage, anything else as internal.
 */
export function exitCodeFor(error: unknown): number {
  if (isTeamkitError(error)) return EXIT_CODES[error.kind];
  if (isUsageError(error)) return EXIT_CODES.usage;
  return EXIT_CODES.internal;
}

function isUsageError(error: unknown): boolean {
  return error instanceof UsageError;
}
