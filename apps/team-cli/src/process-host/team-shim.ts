import { createHash, randomUUID } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TeamkitError } from '@teamkit/team-core';

/** The running `team` command: this Node and this package's `dist/bin.js`. */
export function currentTeamCommand(): { node: string; bin: string } {
  return {
    node: process.execPath,
    bin: path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'bin.js'),
  };
}

/** A word quoted for a POSIX shell: single quotes, each `'` written as `'\''`. */
export function quoteForShell(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The text of a `team` shim that runs `bin` with `node`, passing every argument as it is. */
export function teamShimText(command: { node: string; bin: string }): string {
  return `#!/bin/sh\nexec ${quoteForShell(command.node)} ${quoteForShell(command.bin)} "$@"\n`;
}

async function assertRealFolder(folder: string): Promise<void> {
  const info = await lstat(folder);
  if (info.isSymbolicLink() || !info.isDirectory()) {
    throw new TeamkitError(
      'PATH_TRAVERSAL',
      `Refused ${folder}: the folder of the team command for members must be a real folder, not a ${info.isSymbolicLink() ? 'symbolic link' : 'file'}; remove it and start again.`,
      { details: { path: folder } },
    );
  }
}

async function makePrivateFolder(folder: string): Promise<void> {
  await mkdir(folder, { recursive: true, mode: 0o700 });
  await assertRealFolder(folder);
}

/**
 * Makes sure a `team` shim for the running CLI exists in the Teamkit home and returns its
 * folder, to put first on a member's `PATH`: `<home>/bin/<digest>/team`, where the digest
 * names this Node and this CLI, so two installs sharing a home never overwrite each
 * other's shim. Folders are 0700 and must be real folders (a planted symbolic link is
 * refused with `PATH_TRAVERSAL`); the shim is written to a fresh temp file (exclusive,
 * no link followed), made 0700, then renamed into place, which replaces a planted link
 * rather than writing through it.
 */
export async function ensureTeamShim(
  home: string,
  command: { node: string; bin: string } = currentTeamCommand(),
): Promise<string> {
  const text = teamShimText(command);
  const digest = createHash('sha256').update(text).digest('hex').slice(0, 16);
  const root = path.join(home, 'bin');
  const folder = path.join(root, digest);
  await assertRealFolder(home);
  await makePrivateFolder(root);
  await makePrivateFolder(folder);
  const shim = path.join(folder, 'team');
  const current = await lstat(shim).catch(() => undefined);
  if (current?.isFile() && (current.mode & 0o777) === 0o700) {
    const existing = await readFile(shim, 'utf8').catch(() => '');
    if (existing === text) return folder;
  }
  // Not write-file-atomic: it resolves a link at the target and writes through it, and
  // not writePrivateFile: the shim must be executable (0700), its files are 0600.
  const temp = path.join(folder, `.team-${randomUUID()}.tmp`);
  const handle = await open(
    temp,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
    0o700,
  );
  try {
    await handle.writeFile(text);
    await handle.chmod(0o700);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temp, shim);
  } catch (error) {
    await unlink(temp).catch(() => {});
    throw error;
  }
  return folder;
}

/** `PATH` with `folder` first (once). */
export function prependToPath(folder: string, pathValue: string | undefined): string {
  const rest = (pathValue ?? '')
    .split(path.delimiter)
    .filter((dir) => dir !== '' && dir !== folder);
  return [folder, ...rest].join(path.delimiter);
}
