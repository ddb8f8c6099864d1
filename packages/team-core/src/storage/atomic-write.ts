import { randomUUID } from 'node:crypto';
import { closeSync, fsync, linkSync, mkdirSync, openSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { TeamkitError } from '../errors/index.js';
import { retryWhileBusy, unlinkWithRetry } from './fs-retry.js';

const fsyncDescriptor = promisify(fsync);

const TOLERATED_FSYNC_ERRORS = new Set(['EPERM', 'EACCES', 'EINVAL', 'ENOTSUP', 'EISDIR', 'EBADF']);

/**
 * fsyncs a folder so a rename inside it survives power loss. Platforms that cannot
 * fsync a folder (Windows, some network filesystems) are tolerated.
 */
export async function fsyncDirectory(directory: string): Promise<void> {
  // Opening and closing a folder are metadata calls, made synchronously; the fsync,
  // which waits on the disk, runs on the thread pool.
  let descriptor: number | undefined;
  try {
    descriptor = openSync(directory, 'r');
    await fsyncDescriptor(descriptor);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === undefined || !TOLERATED_FSYNC_ERRORS.has(code)) throw error;
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
}

// Loaded on the first write, not with the module: a process that only reads skips it.
let writeFileAtomicLibrary: typeof import('write-file-atomic') | undefined;

/** Options of {@link writeFileAtomically}. */
export interface AtomicWriteOptions {
  /** The file's mode; default the mode of the file it replaces (a new file gets 0666 less the umask). */
  mode?: number;
}

/**
 * Replaces `target` with `data` so that a crash at any moment leaves either the old
 * or the new content: temp file + fsync + rename (write-file-atomic), then an fsync of
 * the parent folder. Renames that hit EPERM/EBUSY are retried with backoff. A symbolic
 * link at `target` is followed (the file it names is replaced), as a user's own
 * configuration files expect; files inside the Teamkit home, where a planted link must
 * be replaced rather than written through, go through `writePrivateFile` instead.
 */
export async function writeFileAtomically(
  target: string,
  data: string | Buffer,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const directory = path.dirname(target);
  mkdirSync(directory, { recursive: true });
  writeFileAtomicLibrary ??= createRequire(import.meta.url)(
    'write-file-atomic',
  ) as typeof import('write-file-atomic');
  const write = writeFileAtomicLibrary;
  await retryWhileBusy(() =>
    write(target, data, {
      fsync: true,
      ...(options.mode === undefined ? {} : { mode: options.mode }),
    }),
  );
  await fsyncDirectory(directory);
}

/**
 * Creates `target` with `data` only if it does not exist yet, atomically: the content
 * is written and fsynced to a temp file that is then hard-linked into place, so readers
 * never see a partial file and two creators cannot both win. Throws `ALREADY_EXISTS`.
 */
export async function createFileAtomically(target: string, data: string | Buffer): Promise<void> {
  const directory = path.dirname(target);
  mkdirSync(directory, { recursive: true });
  const temp = path.join(directory, `.tmp-${randomUUID()}`);
  const handle = await open(temp, 'wx');
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    linkSync(temp, target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new TeamkitError('ALREADY_EXISTS', `${target} already exists; it was left untouched.`, {
        details: { path: target },
      });
    }
    throw error;
  } finally {
    await unlinkWithRetry(temp);
  }
  await fsyncDirectory(directory);
}
