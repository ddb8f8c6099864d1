import fs from 'node:fs';
import path from 'node:path';
import { TeamkitError } from '../errors/index.js';
import { toStoreError } from './file-store/io-error.js';
import { createFolderGuard, PRIVATE_FILE_MODE } from './file-store/private-folders.js';
import { openRegular, plantedLink, stageTemp } from './file-store/regular-file.js';
import { storeKeySegments } from './store-key.js';

const { O_APPEND, O_CREAT, O_WRONLY } = fs.constants;

// Per-machine files that are not state (member logs, prompt files handed to agent CLIs)
// live under the Teamkit home beside the store's keys. They get the store's protection:
// every folder on the way is checked (no symlink, inside the home, created 0700), the
// file itself is never a link, a FIFO or a device, and it is created 0600.

function placeOf(root: string, relative: string): { folder: string; file: string } {
  const segments = storeKeySegments(relative);
  const folder = createFolderGuard(root).folder(segments.slice(0, -1), true) as string;
  return { folder, file: path.join(folder, segments.at(-1) as string) };
}

function sharedFile(relative: string): TeamkitError {
  return new TeamkitError(
    'PATH_TRAVERSAL',
    `${relative} has another name elsewhere (a hard link); Teamkit never writes through one. Remove it.`,
    { details: { key: relative } },
  );
}

/**
 * Replaces the private file at `relative` under `root` (e.g. `runtime/<run>/prompts/x.md`)
 * with `text`, atomically, and returns its absolute path. A planted link in the way is
 * `PATH_TRAVERSAL`; nothing outside `root` is written.
 */
export async function writePrivateFile(
  root: string,
  relative: string,
  text: string,
): Promise<string> {
  const { folder, file } = placeOf(root, relative);
  const staged = await stageTemp(folder, Buffer.from(text), relative);
  try {
    // A rename replaces the name, never what a planted link at that name points to.
    fs.renameSync(staged.path, file);
  } catch (error) {
    throw toStoreError(error, relative, 'write');
  } finally {
    staged.discard();
  }
  return file;
}

/**
 * Opens the private file at `relative` under `root` for appending (a member's log),
 * creating it 0600; the caller closes the descriptor. A link, FIFO, device or folder in
 * its place is refused with a typed error, and so is a file with a second name.
 */
export function openPrivateAppend(root: string, relative: string): { fd: number; path: string } {
  const { file } = placeOf(root, relative);
  const opened = openRegular(file, O_WRONLY | O_APPEND | O_CREAT, relative, PRIVATE_FILE_MODE);
  if (opened.kind === 'symlink') throw plantedLink(relative, opened.target);
  if (opened.kind === 'absent') {
    throw new TeamkitError('IO_ERROR', `${relative} vanished while it was opened; retry.`, {
      details: { key: relative },
    });
  }
  if (opened.info.nlink > 1n) {
    fs.closeSync(opened.fd);
    throw sharedFile(relative);
  }
  try {
    fs.fchmodSync(opened.fd, PRIVATE_FILE_MODE);
  } catch (error) {
    fs.closeSync(opened.fd);
    throw toStoreError(error, relative, 'protect');
  }
  return { fd: opened.fd, path: file };
}
