import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { TeamkitError } from '../../errors/index.js';
import { fsyncDirectory } from '../atomic-write.js';
import { TEMP_PREFIX } from '../store-key.js';
import { MAX_VALUE_BYTES } from '../stored-text.js';
import { errnoOf, toStoreError } from './io-error.js';
import { describeType, PRIVATE_FILE_MODE } from './private-folders.js';

const { O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK, O_RDONLY, O_WRONLY } = fs.constants;

const fsyncDescriptor = promisify(fs.fsync);

/** Flags for reading a file that may have been replaced by anything: no links, no blocking. */
export const READ_FLAGS = O_RDONLY | O_NOFOLLOW | O_NONBLOCK;

/** What sits at a path that was opened without following links. */
export type Opened =
  | { kind: 'file'; fd: number; info: fs.BigIntStats }
  | { kind: 'symlink'; info: fs.BigIntStats; target: string }
  | { kind: 'absent' };

/**
 * Opens `target` without following a symlink and without blocking (a FIFO or a device
 * never hangs the caller), and requires a regular file: anything else is
 * `CORRUPT_DOCUMENT` naming its type. A symlink is returned for the caller to judge.
 */
export function openRegular(target: string, flags: number, key: string, mode?: number): Opened {
  let fd: number;
  try {
    fd = fs.openSync(target, flags | O_NOFOLLOW | O_NONBLOCK, mode);
  } catch (error) {
    const code = errnoOf(error);
    if (code === 'ENOENT') return { kind: 'absent' };
    if (code === 'ELOOP') {
      const info = fs.lstatSync(target, { bigint: true, throwIfNoEntry: false });
      if (info === undefined) return { kind: 'absent' };
      if (info.isSymbolicLink()) return { kind: 'symlink', info, target: fs.readlinkSync(target) };
    }
    if (code === 'ENXIO' || code === 'EISDIR') {
      const info = fs.lstatSync(target, { throwIfNoEntry: false });
      if (info !== undefined) throw wrongType(key, describeType(info));
    }
    throw toStoreError(error, key, 'open');
  }
  let info: fs.BigIntStats;
  try {
    info = fs.fstatSync(fd, { bigint: true });
  } catch (error) {
    fs.closeSync(fd);
    throw toStoreError(error, key, 'inspect');
  }
  if (!info.isFile()) {
    fs.closeSync(fd);
    throw wrongType(key, describeType(info));
  }
  return { kind: 'file', fd, info };
}

/** `CORRUPT_DOCUMENT` for something that is not a regular file where one should be. */
export function wrongType(key: string, type: string): TeamkitError {
  return new TeamkitError(
    'CORRUPT_DOCUMENT',
    `${key} is a ${type}, not a regular file; it was left in place and not opened. Move it aside.`,
    { details: { key, type } },
  );
}

/** `PATH_TRAVERSAL` for a symlink planted where the store keeps a file. */
export function plantedLink(key: string, target: string): TeamkitError {
  return new TeamkitError(
    'PATH_TRAVERSAL',
    `${key} is a symlink (to ${target}); Teamkit never follows links inside its home, so nothing was read or written through it. Remove the link.`,
    { details: { key, target } },
  );
}

/** Reads all of an open regular file as UTF-8, refusing one over {@link MAX_VALUE_BYTES}. */
export function readOpened(fd: number, info: fs.BigIntStats, key: string): string {
  if (info.size > BigInt(MAX_VALUE_BYTES)) {
    throw new TeamkitError(
      'CORRUPT_DOCUMENT',
      `${key} is ${info.size} bytes, over the ${MAX_VALUE_BYTES}-byte limit of a stored value; it was left in place. Move it aside.`,
      { details: { key, size: Number(info.size) } },
    );
  }
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      // The first read asks for one byte more than the size, so it normally reaches the
      // end of the file in one call: a short read of a regular file is its end.
      const chunk = Buffer.allocUnsafe(total === 0 ? Number(info.size) + 1 : 65_536);
      const read = fs.readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      chunks.push(chunk.subarray(0, read));
      total += read;
      if (total > MAX_VALUE_BYTES) {
        throw new TeamkitError(
          'CORRUPT_DOCUMENT',
          `${key} grew past the ${MAX_VALUE_BYTES}-byte limit of a stored value while it was read; it was left in place.`,
          { details: { key } },
        );
      }
      if (read < chunk.length) break;
    }
    const [only] = chunks;
    return chunks.length === 1 && only !== undefined
      ? only.toString('utf8')
      : Buffer.concat(chunks, total).toString('utf8');
  } catch (error) {
    throw toStoreError(error, key, 'read');
  }
}

/** A temp file holding new content, fsynced, not yet linked anywhere. */
export interface StagedTemp {
  readonly path: string;
  /** Its inode number, as a decimal string. */
  readonly ino: string;
  /** Removes the temp name; fine when it is already gone (renamed into place). */
  discard(): void;
}

/** Writes `data` to a fresh private temp file in `folder` and fsyncs it. */
export async function stageTemp(folder: string, data: Buffer, key: string): Promise<StagedTemp> {
  const temp = path.join(folder, `${TEMP_PREFIX}${randomUUID()}`);
  let fd: number | undefined;
  try {
    fd = fs.openSync(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, PRIVATE_FILE_MODE);
    fs.fchmodSync(fd, PRIVATE_FILE_MODE);
    let written = 0;
    while (written < data.length) {
      written += fs.writeSync(fd, data, written, data.length - written);
    }
    await fsyncDescriptor(fd);
    const ino = fs.fstatSync(fd, { bigint: true }).ino.toString();
    fs.closeSync(fd);
    fd = undefined;
    return { path: temp, ino, discard: () => removeQuietly(temp) };
  } catch (error) {
    if (fd !== undefined) fs.closeSync(fd);
    removeQuietly(temp);
    throw toStoreError(error, key, 'write');
  }
}

/** Unlinks a name the store made; a missing name is fine and other failures are left to cleanup. */
export function removeQuietly(target: string): void {
  try {
    fs.unlinkSync(target);
  } catch {
    // Already gone, or not removable now: `removeStaleTemporaries` takes it later.
  }
}

/**
 * fsyncs folders after renames and links, as a store error on failure. The fsyncs run
 * side by side: on a journaling filesystem they wait for the same journal commit.
 */
export async function syncFolders(folders: readonly string[], key: string): Promise<void> {
  try {
    await Promise.all(folders.map((folder) => fsyncDirectory(folder)));
  } catch (error) {
    throw toStoreError(error, key, 'flush the folder of');
  }
}
