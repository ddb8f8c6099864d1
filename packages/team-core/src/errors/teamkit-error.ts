import {
  TEAMKIT_ERROR_CODES,
  type TeamkitErrorCode,
  type TeamkitErrorKind,
} from './error-codes.js';

const marker = Symbol.for('@teamkit/team-core/error');

/** Options for {@link TeamkitError}: an optional cause and structured details. */
export interface TeamkitErrorOptions {
  cause?: unknown;
  details?: Record<string, unknown>;
}

/**
 * The one error class Teamkit throws on purpose. `code` is stable and documented;
 * `message` says what went wrong and what to do; `details` carries structured facts.
 */
export class TeamkitError extends Error {
  override readonly name = 'TeamkitError';
  readonly code: TeamkitErrorCode;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: TeamkitErrorCode, message: string, options: TeamkitErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.details = options.details;
    Object.defineProperty(this, marker, { value: true });
  }

  /** The kind of failure, used to pick exit codes and retry behaviour. */
  get kind(): TeamkitErrorKind {
    return TEAMKIT_ERROR_CODES[this.code].kind;
  }

  /** A plain object for JSON output: code, message and details. */
  toJSON(): { code: TeamkitErrorCode; message: string; details?: Record<string, unknown> } {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details };
  }
}

/**
 * True when `value` is a TeamkitError, also when it came from another copy of this
 * package (the check uses a global symbol, not `instanceof`). Pass `code` to narrow.
 */
export function isTeamkitError(value: unknown, code?: TeamkitErrorCode): value is TeamkitError {
  if (typeof value !== 'object' || value === null) return false;
  if ((value as { [marker]?: unknown })[marker] !== true) return false;
  return code === undefined || (value as TeamkitError).code === code;
}
