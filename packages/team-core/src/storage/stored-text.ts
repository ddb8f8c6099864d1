import { TeamkitError } from '../errors/index.js';

/** The largest value or entry a store writes or reads, in UTF-8 bytes. */
export const MAX_VALUE_BYTES = 32 * 1024 * 1024;

/** Refuses a text no store could give back (`INVALID_INPUT`) and returns its UTF-8 bytes. */
export function assertStorableText(text: string, key: string): Buffer {
  if (typeof text !== 'string') {
    throw new TeamkitError('INVALID_INPUT', `Refused to write ${key}: the value is not a string.`, {
      details: { key },
    });
  }
  const data = Buffer.from(text, 'utf8');
  if (data.length > MAX_VALUE_BYTES) {
    throw new TeamkitError(
      'INVALID_INPUT',
      `Refused to write ${key}: ${data.length} bytes is over the ${MAX_VALUE_BYTES}-byte limit of a stored value.`,
      { details: { key, bytes: data.length } },
    );
  }
  return data;
}

/** Refuses a log line a log could not give back as one line (`INVALID_INPUT`). */
export function assertLogLine(line: string, key: string): void {
  if (typeof line !== 'string' || line.includes('\n') || line.includes('\r')) {
    throw new TeamkitError(
      'INVALID_INPUT',
      `Refused to append to ${key}: a log line is one string without line breaks.`,
      { details: { key } },
    );
  }
}

/** Refuses a bad `olderThanMs` (`INVALID_INPUT`). */
export function assertAge(olderThanMs: number): void {
  if (typeof olderThanMs !== 'number' || !Number.isFinite(olderThanMs) || olderThanMs < 0) {
    throw new TeamkitError(
      'INVALID_INPUT',
      'olderThanMs must be a non-negative number of milliseconds.',
      { details: { olderThanMs: String(olderThanMs) } },
    );
  }
}
