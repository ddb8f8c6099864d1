import fs from 'node:fs';
import { mkdir, rmdir, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { TeamkitError } from '../errors/index.js';

// Loaded on the first lock, not with the module: proper-lockfile brings graceful-fs, which
// a process that only reads (`team run status`) should not pay for at start-up.
let properLockfile: typeof import('proper-lockfile') | undefined;
function lockfileLibrary(): typeof import('proper-lockfile') {
  properLockfile ??= createRequire(import.meta.url)(
    'proper-lockfile',
  ) as typeof import('proper-lockfile');
  return properLockfile;
}

/** Tuning for {@link acquireLock} and {@link withLock}. */
export interface LockOptions {
  /**
   * How long a lock may go without its holder's heartbeat before another process may
   * take it over. The holder refreshes it every quarter of this period while alive.
   * Default 10 000 ms; at least 2 000 ms.
   */
  staleMs?: number;
  /** How long to keep trying before failing with `LOCK_TIMEOUT`. Default 15 000 ms. */
  timeoutMs?: number;
}

/** A lock held by this process. */
export interface FileLock {
  /** The file the lock guards (the lock itself is the folder `<path>.lock`). */
  readonly path: string;
  /** True once the lock was lost: removed or taken over by someone else. */
  readonly compromised: boolean;
  /** Throws `LOCK_COMPROMISED` if the lock was lost; call before each guarded write. */
  assertHeld(): void;
}

const DEFAULT_STALE_MS = 10_000;
const DEFAULT_TIMEOUT_MS = 15_000;
const NEVER_STALE_FOR_LIBRARY = 2 ** 31 - 1;
const TAKEOVER_STALE_MS = 5_000;
// Lock folders are private to the user whatever the umask (which can only remove bits).
const PRIVATE_FOLDER_MODE = 0o700;

/** What a holder in this process knows about its lock folder. */
interface Ownership {
  recordMtime(mtimeMs: number): void;
  lost(): boolean;
}

// A guarded write cannot wait for the heartbeat (it runs every few seconds) to learn
// that the lock was lost, so it checks the folder at once: same inode and an mtime
// this holder set (ext4 reuses a removed folder's inode at once, so inode alone fails).
const owners = new Map<string, Ownership>();

// proper-lockfile removes the lock folder on release and at process exit without
// asking whose it is; through this view it removes only a folder still ours. One
// shared object, because proper-lockfile caches its mtime-precision probe on it.
// Its four calls are served synchronously: each is one metadata system call on the
// lock folder (microseconds on a local disk), where a thread-pool round trip would cost
// several times more and stretch every critical section.
type Callback<T> = (error: NodeJS.ErrnoException | null, result?: T) => void;
function served<T>(call: () => T, callback: Callback<T>): void {
  let result: T;
  try {
    result = call();
  } catch (error) {
    callback(error as NodeJS.ErrnoException);
    return;
  }
  callback(null, result);
}
const lockFs = {
  ...fs,
  mkdir(folder: fs.PathLike, callback: Callback<void>) {
    served(() => {
      fs.mkdirSync(folder, PRIVATE_FOLDER_MODE);
    }, callback);
  },
  stat(folder: fs.PathLike, callback: Callback<fs.Stats>) {
    served(() => fs.statSync(folder), callback);
  },
  utimes(folder: fs.PathLike, atime: Date, mtime: Date, callback: Callback<void>) {
    served(() => {
      fs.utimesSync(folder, atime, mtime);
      owners.get(String(folder))?.recordMtime(mtime.getTime());
    }, callback);
  },
  rmdir(folder: fs.PathLike, callback: Callback<void>) {
    served(() => {
      if (owners.get(String(folder))?.lost() !== true) fs.rmdirSync(folder);
    }, callback);
  },
  rmdirSync(folder: fs.PathLike) {
    if (owners.get(String(folder))?.lost() === true) return;
    fs.rmdirSync(folder);
  },
};

/** The folder that represents the lock on `target` (proper-lockfile's convention). */
export function lockFolderOf(target: string): string {
  return `${target}.lock`;
}

async function ageOf(folder: string): Promise<number | undefined> {
  try {
    return Date.now() - (await stat(folder)).mtimeMs;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Removes the lock folder of a dead holder. Takeovers are serialised by a second
 * folder so that two processes that both saw the same stale lock cannot remove a
 * fresh lock a third process took in between: the age is checked again under it.
 * Returns whether anything changed (a lock or a dead takeover folder removed), so the
 * caller knows whether to retry at once or to wait.
 */
async function takeOverIfStale(lockFolder: string, staleMs: number): Promise<boolean> {
  const takeover = `${lockFolder}.takeover`;
  try {
    await mkdir(takeover, { mode: PRIVATE_FOLDER_MODE });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    // Another process is taking over, or died doing so: only a takeover folder older
    // than its own stale period is removed; until then this process waits.
    const age = await ageOf(takeover);
    if (age === undefined) return true;
    if (age <= TAKEOVER_STALE_MS) return false;
    return rmdir(takeover).then(
      () => true,
      () => false,
    );
  }
  try {
    const age = await ageOf(lockFolder);
    if (age === undefined) return true;
    if (age <= staleMs) return false;
    await rmdir(lockFolder).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
    return true;
  } finally {
    await rmdir(takeover).catch(() => {});
  }
}

/**
 * Acquires the lock on `target`, waiting up to `timeoutMs`. A lock whose holder stopped
 * its heartbeat for `staleMs` is taken over; a live holder keeps its lock however long
 * it works. Losing the lock never throws from a timer: it is recorded on the returned
 * {@link FileLock}, whose next guarded write fails with `LOCK_COMPROMISED`.
 */
export async function acquireLock(
  target: string,
  options: LockOptions = {},
): Promise<{ lock: FileLock; release: () => Promise<void> }> {
  const staleMs = Math.max(options.staleMs ?? DEFAULT_STALE_MS, 2_000);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const lockFolder = lockFolderOf(target);

  let compromise: Error | undefined;
  let released = false;
  let ownIno: number | undefined;
  const ownMtimes: number[] = [];
  const isOwnMtime = (mtimeMs: number) =>
    ownMtimes.some(
      (own) => Math.abs(mtimeMs - own) < 1 || mtimeMs === Math.floor(own / 1_000) * 1_000,
    );
  const lostNow = (): Error | undefined => {
    if (compromise !== undefined || released || ownIno === undefined) return compromise;
    let info: fs.Stats;
    try {
      info = fs.statSync(lockFolder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        compromise = Object.assign(new Error(`${lockFolder} was removed`), {
          code: 'ECOMPROMISED',
        });
      }
      return compromise;
    }
    if (info.ino !== ownIno || !isOwnMtime(info.mtimeMs)) {
      compromise = Object.assign(new Error(`${lockFolder} now belongs to another holder`), {
        code: 'ECOMPROMISED',
      });
    }
    return compromise;
  };
  const ownership: Ownership = {
    recordMtime(mtimeMs) {
      ownMtimes.push(mtimeMs);
      if (ownMtimes.length > 3) ownMtimes.shift();
    },
    lost: () => lostNow() !== undefined,
  };
  const held: FileLock = {
    path: target,
    get compromised() {
      return lostNow() !== undefined;
    },
    assertHeld() {
      const lost = lostNow();
      if (lost !== undefined) {
        throw new TeamkitError(
          'LOCK_COMPROMISED',
          `The lock on ${target} was lost while held (${lost.message}); the write was refused. Retry the operation.`,
          { cause: lost, details: { path: target } },
        );
      }
    },
  };

  const deadline = Date.now() + timeoutMs;
  let wait = 2;
  for (;;) {
    try {
      const release = await lockfileLibrary().lock(target, {
        realpath: false,
        lockfilePath: lockFolder,
        retries: 0,
        stale: NEVER_STALE_FOR_LIBRARY,
        update: Math.max(1_000, Math.floor(staleMs / 4)),
        fs: lockFs,
        onCompromised: (error) => {
          compromise ??= error;
        },
      });
      const info = fs.statSync(lockFolder);
      ownIno = info.ino;
      ownership.recordMtime(info.mtimeMs);
      owners.set(lockFolder, ownership);
      return {
        lock: held,
        release: async () => {
          if (released) return;
          lostNow();
          released = true;
          try {
            // Also when the lock was lost: this stops the heartbeat, and lockFs keeps
            // the other holder's folder in place.
            await release();
          } catch (error) {
            compromise ??= error as Error;
          } finally {
            if (owners.get(lockFolder) === ownership) owners.delete(lockFolder);
          }
        },
      };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // The folder that holds the lock is created on demand, not checked before each lock.
      if (code === 'ENOENT') {
        await mkdir(path.dirname(lockFolder), { recursive: true, mode: PRIVATE_FOLDER_MODE });
        continue;
      }
      if (code !== 'ELOCKED') throw error;
    }
    // Only a try that changed something is repeated at once; every other pass waits, so
    // no state of the lock folders (a takeover folder left over, say) makes this spin.
    const age = await ageOf(lockFolder);
    const progressed =
      age === undefined || (age > staleMs && (await takeOverIfStale(lockFolder, staleMs)));
    if (Date.now() >= deadline) {
      throw new TeamkitError(
        'LOCK_TIMEOUT',
        `Timed out after ${timeoutMs} ms waiting for the lock ${lockFolder}. Another process holds it; if none is running, it becomes stale after ${staleMs} ms.`,
        { details: { lock: lockFolder, timeoutMs, staleMs } },
      );
    }
    if (progressed) continue;
    await delay(wait + Math.random() * wait);
    wait = Math.min(wait * 2, 50);
  }
}

/**
 * Runs `fn` while holding the lock on `target` and releases it on every exit path.
 * If the lock was lost while `fn` ran, the result is discarded and `LOCK_COMPROMISED`
 * is thrown (unless `fn` itself threw, whose error wins).
 */
export async function withLock<T>(
  target: string,
  fn: (lock: FileLock) => Promise<T>,
  options: LockOptions = {},
): Promise<T> {
  const { lock, release } = await acquireLock(target, options);
  let result: T;
  try {
    result = await fn(lock);
  } finally {
    await release();
  }
  lock.assertHeld();
  return result;
}
