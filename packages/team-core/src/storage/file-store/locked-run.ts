import { type FileLock, type LockOptions, withLock } from '../file-lock.js';
import { toStoreError } from './io-error.js';

/**
 * Runs `fn` under the file lock on `target` (the folder `<target>.lock`). What `fn`
 * throws reaches the caller as thrown (a caller's admission check, say); only failures
 * of the lock itself are turned into store errors naming `key`.
 */
export async function lockedRun<T>(
  target: string,
  key: string,
  fn: (lock: FileLock) => Promise<T>,
  options: LockOptions,
): Promise<T> {
  let thrown: { error: unknown } | undefined;
  try {
    return await withLock(
      target,
      async (lock) => {
        try {
          return await fn(lock);
        } catch (error) {
          thrown = { error };
          throw error;
        }
      },
      options,
    );
  } catch (error) {
    if (thrown !== undefined && thrown.error === error) throw error;
    throw toStoreError(error, key, 'lock');
  }
}
