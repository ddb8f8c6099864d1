import fs from 'node:fs';
import path from 'node:path';
import { TeamkitError } from '../../errors/index.js';
import { errnoOf, toStoreError } from './io-error.js';

/** Mode of every folder the file store creates, whatever the umask. */
export const PRIVATE_FOLDER_MODE = 0o700;
/** Mode of every file the file store creates, whatever the umask. */
export const PRIVATE_FILE_MODE = 0o600;

/** What kind of filesystem object `info` is, in words for an error message. */
export function describeType(info: fs.Stats | fs.BigIntStats): string {
  if (info.isFile()) return 'regular file';
  if (info.isDirectory()) return 'folder';
  if (info.isSymbolicLink()) return 'symlink';
  if (info.isFIFO()) return 'FIFO';
  if (info.isSocket()) return 'socket';
  if (info.isCharacterDevice()) return 'character device';
  if (info.isBlockDevice()) return 'block device';
  return 'special file';
}

function lstatOrUndefined(target: string): fs.Stats | undefined {
  return fs.lstatSync(target, { throwIfNoEntry: false });
}

function isInside(base: string, candidate: string): boolean {
  const relative = path.relative(base, candidate);
  return relative === '' || (relative.split(path.sep)[0] !== '..' && !path.isAbsolute(relative));
}

/**
 * Hands out the folders of the file store, each checked once per process: every
 * component between the root and the folder is a real folder (never a symlink, which is
 * refused with `PATH_TRAVERSAL` naming it), and the folder's real path is inside the
 * root's. Afterwards one `lstat` per use confirms the folder is still the same inode, so
 * a folder swapped for a link later is caught too. Folders it creates are 0700.
 */
export interface FolderGuard {
  /** The root folder, absolute (a symlink there is the user's choice and is followed). */
  readonly root: string;
  /** The checked folder at `segments`; created when `create`, else `undefined` when absent. */
  folder(segments: readonly string[], create: boolean): string | undefined;
  /** Forgets what was checked at and under `segments` (after the tree was removed). */
  forget(segments: readonly string[]): void;
}

/** Creates the {@link FolderGuard} of a store rooted at `root`. */
export function createFolderGuard(root: string): FolderGuard {
  const absoluteRoot = path.resolve(root);
  let realRoot: string | undefined;
  const checked = new Map<string, number>();

  function makePrivateFolder(target: string, key: string): void {
    try {
      fs.mkdirSync(target, PRIVATE_FOLDER_MODE);
      // The umask can only remove bits, but a umask such as 0700 removes the owner's.
      fs.chmodSync(target, PRIVATE_FOLDER_MODE);
    } catch (error) {
      if (errnoOf(error) !== 'EEXIST') throw toStoreError(error, key, 'create the folder');
    }
  }

  function ensureRoot(create: boolean): boolean {
    if (realRoot !== undefined) return true;
    let info: fs.Stats | undefined;
    try {
      info = fs.statSync(absoluteRoot, { throwIfNoEntry: false });
    } catch (error) {
      throw rootProblem(errnoOf(error) ?? 'UNKNOWN', error);
    }
    if (info === undefined) {
      if (!create) return false;
      try {
        fs.mkdirSync(path.dirname(absoluteRoot), { recursive: true });
      } catch (error) {
        throw rootProblem(errnoOf(error) ?? 'UNKNOWN', error);
      }
      makePrivateFolder(absoluteRoot, absoluteRoot);
      info = fs.statSync(absoluteRoot);
    }
    if (!info.isDirectory()) throw rootProblem('ENOTDIR', undefined, describeType(info));
    realRoot = fs.realpathSync(absoluteRoot);
    return true;
  }

  function rootProblem(code: string, cause: unknown, type?: string): TeamkitError {
    if (code === 'ENOTDIR') {
      return new TeamkitError(
        'IO_ERROR',
        `The Teamkit home ${absoluteRoot} is ${type === undefined ? 'under a file' : `a ${type}`}, not a folder (ENOTDIR). Move it aside or point TEAMKIT_HOME at a folder.`,
        { cause, details: { key: '', errno: code, root: absoluteRoot } },
      );
    }
    return toStoreError(cause, absoluteRoot, 'open the Teamkit home');
  }

  function walk(segments: readonly string[], create: boolean): string | undefined {
    if (!ensureRoot(create)) return undefined;
    let current = absoluteRoot;
    for (let index = 0; index < segments.length; index += 1) {
      current = path.join(current, segments[index] as string);
      const key = segments.slice(0, index + 1).join('/');
      let info = lstatOrUndefined(current);
      if (info === undefined) {
        if (!create) return undefined;
        makePrivateFolder(current, key);
        info = fs.lstatSync(current);
      }
      if (info.isSymbolicLink()) {
        const target = fs.readlinkSync(current);
        throw new TeamkitError(
          'PATH_TRAVERSAL',
          `${key} is a symlink (to ${target}); Teamkit never follows links inside its home, so nothing was written through it. Remove the link.`,
          { details: { key, link: current, target } },
        );
      }
      if (!info.isDirectory()) {
        throw new TeamkitError(
          'CORRUPT_DOCUMENT',
          `${key} is a ${describeType(info)} where a folder should be; it was left in place. Move it aside.`,
          { details: { key, type: describeType(info) } },
        );
      }
      checked.set(key, info.ino);
    }
    const real = fs.realpathSync(current);
    if (!isInside(realRoot as string, real)) {
      const key = segments.join('/');
      throw new TeamkitError(
        'PATH_TRAVERSAL',
        `${key} resolves to ${real}, outside the Teamkit home ${realRoot}; nothing was written there.`,
        { details: { key, resolved: real } },
      );
    }
    return current;
  }

  return {
    root: absoluteRoot,
    folder(segments, create) {
      const key = segments.join('/');
      const target = path.join(absoluteRoot, ...segments);
      const known = segments.length === 0 ? undefined : checked.get(key);
      if (known !== undefined) {
        const info = lstatOrUndefined(target);
        if (info?.isDirectory() === true && info.ino === known) return target;
        for (const name of [...checked.keys()]) {
          if (name === key || name.startsWith(`${key}/`)) checked.delete(name);
        }
      } else if (segments.length === 0 && realRoot !== undefined) {
        return absoluteRoot;
      }
      try {
        return walk(segments, create);
      } catch (error) {
        throw toStoreError(error, key, 'open the folder');
      }
    },
    forget(segments) {
      const key = segments.join('/');
      for (const name of [...checked.keys()]) {
        if (key === '' || name === key || name.startsWith(`${key}/`)) checked.delete(name);
      }
      if (key === '') realRoot = undefined;
    },
  };
}
