import { toStoreError } from '../storage/file-store/io-error.js';

/**
 * Turns an error the filesystem raised (one with an errno code such as `ENOSPC`) into the
 * typed error the store gives for it (`IO_ERROR` naming the step, the path and what to
 * do; `PATH_TRAVERSAL` for a link in the way; `CORRUPT_DOCUMENT` for a folder where a
 * file should be). Anything else is returned unchanged.
 */
export function asIoError(error: unknown, action: string, key: string): unknown {
  const errno = (error as { code?: unknown } | null)?.code;
  if (typeof errno !== 'string' || !/^E[A-Z0-9]+$/.test(errno)) return error;
  return toStoreError(error, key, action);
}

/**
 * Runs a storage step of the path store, reporting filesystem errors as typed errors
 * (see {@link asIoError}). The keyed store raises them itself.
 */
export function withIoErrors<T>(action: string, key: string, step: () => Promise<T>): Promise<T> {
  // A plain promise chain, not an async function: listings run this once per file.
  const fail = (error: unknown): never => {
    throw asIoError(error, action, key);
  };
  try {
    return step().catch(fail);
  } catch (error) {
    return Promise.reject(asIoError(error, action, key));
  }
}
