import fs from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { TeamkitError } from '@teamkit/team-core';
import lockfile from 'proper-lockfile';

/**
 * Claude Code's lock staleness: proper-lockfile's default, which Claude Code does not
 * change. Both sides must agree on it, so that neither takes over a live holder's lock.
 */
export const CLAUDE_LOCK_STALE_MS = 10_000;

// A holder refreshes its lock folder's mtime every STALE/2; a write is refused once the
// last refresh is older than this, well before anybody may call the lock stale.
const SAFE_HOLD_MS = CLAUDE_LOCK_STALE_MS - 3_000;

/** A lock held on one of Claude Code's files. */
export interface HeldClaudeLock {
  /** Throws `LOCK_COMPROMISED` when the lock may be lost; call right before each write. */
  assertHeld(): void;
}

/** Options of {@link withClaudeLock}. */
export interface ClaudeLockOptions {
  /** How long to wait for the lock before `LOCK_TIMEOUT`. Default 15 000 ms. */
  timeoutMs?: number;
}

/**
 * Runs `fn` holding the lock Claude Code takes on `target`: proper-lockfile's lock
 * folder `lockFolder` (`<file>.lock` for an inbox, `tasks/<team>/.lock.lock` for task
 * ids), with Claude Code's stale period. Unlike a bare proper-lockfile lock, a lost lock
 * never throws from a timer and is never removed from its new holder on release: the
 * guarded write sees `LOCK_COMPROMISED` instead. The lock folder's parent must exist:
 * a missing one is an `ENOENT` error, never created here.
 */
export async function withClaudeLock<T>(
  target: string,
  lockFolder: string,
  fn: (lock: HeldClaudeLock) => Promise<T>,
  options: ClaudeLockOptions = {},
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 15_000;
  let compromised: Error | undefined;
  let lastTouch = 0;
  let released = false;
  let holding = false;
  let ownIno: number | undefined;
  const ownMtimes: number[] = [];
  const lost = (): Error | undefined => {
    if (compromised !== undefined) return compromised;
    if (!released && Date.now() - lastTouch > SAFE_HOLD_MS) {
      return new Error(`the lock was not refreshed for ${Date.now() - lastTouch} ms`);
    }
    let info: fs.Stats;
    try {
      info = fs.statSync(lockFolder);
    } catch {
      return new Error(`${lockFolder} was removed`);
    }
    // A folder another holder made after ours was removed: a new inode, or (where the
    // filesystem reuses inodes at once) an mtime this holder never set.
    const ours =
      info.ino === ownIno &&
      ownMtimes.some(
        (mtime) =>
          Math.abs(info.mtimeMs - mtime) < 1 || info.mtimeMs === Math.floor(mtime / 1_000) * 1_000,
      );
    return ours ? undefined : new Error(`${lockFolder} now belongs to another holder`);
  };
  const lockFs = {
    ...fs,
    utimes(file: fs.PathLike, atime: Date, mtime: Date, callback: (error: Error | null) => void) {
      fs.utimes(file, atime, mtime, (error) => {
        if (error === null) {
          lastTouch = Date.now();
          ownMtimes.push(mtime.getTime());
          if (ownMtimes.length > 3) ownMtimes.shift();
        }
        callback(error);
      });
    },
    rmdir(file: fs.PathLike, callback: (error: Error | null) => void) {
      // Taking over a stale lock removes it as usual; releasing leaves a lock that may
      // now be somebody else's in place.
      if (holding && lost() !== undefined) {
        callback(null);
      } else fs.rmdir(file, callback);
    },
  };

  const deadline = Date.now() + timeoutMs;
  let wait = 5;
  let release: () => Promise<void>;
  for (;;) {
    const attemptedAt = Date.now();
    try {
      release = await lockfile.lock(target, {
        lockfilePath: lockFolder,
        realpath: false,
        stale: CLAUDE_LOCK_STALE_MS,
        retries: 0,
        fs: lockFs,
        onCompromised: (error) => {
          compromised ??= error;
        },
      });
      holding = true;
      lastTouch = Math.max(lastTouch, attemptedAt);
      ownIno = fs.statSync(lockFolder).ino;
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
    }
    if (Date.now() >= deadline) {
      throw new TeamkitError(
        'LOCK_TIMEOUT',
        `Timed out after ${timeoutMs} ms waiting for ${lockFolder}. Claude Code (or another writer) holds it; if nobody does, it counts as stale ${CLAUDE_LOCK_STALE_MS / 1_000} s after its last refresh. Try again.`,
        { details: { lock: lockFolder, timeoutMs } },
      );
    }
    // Claude Code retries between 5 and 100 ms; so does this, with jitter.
    await delay(wait / 2 + Math.random() * wait);
    wait = Math.min(wait * 2, 100);
  }
  const held: HeldClaudeLock = {
    assertHeld() {
      const error = lost();
      if (error !== undefined) {
        throw new TeamkitError(
          'LOCK_COMPROMISED',
          `The lock ${lockFolder} may have been lost (${error.message}); nothing more was written. Try again.`,
          { cause: error, details: { lock: lockFolder } },
        );
      }
    },
  };
  try {
    return await fn(held);
  } finally {
    released = true;
    try {
      await release();
    } catch {
      // Already released because it was compromised: the write was refused by assertHeld.
    }
  }
}
