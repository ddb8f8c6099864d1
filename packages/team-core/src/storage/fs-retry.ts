import { renameSync, unlinkSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';

const RETRYABLE = new Set(['EPERM', 'EBUSY', 'EACCES']);
const ATTEMPTS = 6;

/**
 * Runs a filesystem call again with bounded backoff when another handle holds the
 * file (EPERM/EBUSY, common on Windows). Any other error is thrown at once.
 */
export async function retryWhileBusy<T>(operation: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await operation();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === undefined || !RETRYABLE.has(code) || attempt >= ATTEMPTS) throw error;
      await delay(10 * 2 ** attempt);
    }
  }
}

// A rename or unlink is one metadata system call (microseconds on a local disk), so it
// is made synchronously; only the waits between retries are asynchronous.

/** `rename` that retries while the source or target is busy. */
export function renameWithRetry(from: string, to: string): Promise<void> {
  return retryWhileBusy(async () => renameSync(from, to));
}

/** `unlink` that retries while busy and treats a missing file as already removed. */
export async function unlinkWithRetry(target: string): Promise<void> {
  try {
    await retryWhileBusy(async () => unlinkSync(target));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** Recursive removal that retries while busy; a missing path is fine. */
export function removeTreeWithRetry(target: string): Promise<void> {
  return retryWhileBusy(() => rm(target, { recursive: true, force: true }));
}
