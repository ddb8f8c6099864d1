/** Options of {@link errorMessage}. */
export interface ErrorMessageOptions {
  /** An `Error`'s stack (which starts with its message) instead of its message alone. */
  stack?: boolean;
}

/**
 * The text of any caught value, for logs, notices and error details: an `Error`'s
 * message (or its stack, with `stack`), anything else thrown as `String(value)`.
 */
export function errorMessage(error: unknown, options: ErrorMessageOptions = {}): string {
  if (!(error instanceof Error)) return String(error);
  return options.stack === true ? (error.stack ?? error.message) : error.message;
}
