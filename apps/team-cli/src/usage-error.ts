/** An error raised for a malformed command line. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
