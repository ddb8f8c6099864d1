import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmod, cp, mkdir, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import type { PlantedFileRow, PlantTarget } from './planted-files.js';

// Every kind of hostile file at every level of a run, as rows of the hostile-input suite
// (see check-row.ts). A link points into the decoy folder outside the home, which must
// stay byte-for-byte unchanged whatever the commands do.

/** Places in a run folder that hold a file (relative to `runtime/<run>/`). */
const FILE_PLACES = [
  'state.json',
  'events.jsonl',
  'tasks/1.json',
  'tasks/.highwatermark',
  'inboxes/lead/.version',
  'supervisor.json',
  'presence/w1.json',
  'prompts/w1.md',
  'logs/w1.log',
  'team.json',
] as const;

/** Places in a run folder that hold a folder. */
const FOLDER_PLACES = [
  'tasks',
  'inboxes',
  'inboxes/lead',
  'inboxes/lead/processed',
  'inboxes/.sent',
  'presence',
  'handoff',
  'prompts',
  'logs',
] as const;

/**
 * Copies what is at `inside` into the decoy (so the link looks real), removes it and links
 * it there. A copy, not a move: a file a process already holds open (the supervisor's
 * log) must not end up outside the home through that descriptor.
 */
async function copyOut(inside: string, outside: string, folder: boolean): Promise<void> {
  await mkdir(path.dirname(inside), { recursive: true });
  try {
    await cp(inside, outside, { recursive: true, errorOnExist: true, force: false });
    await rm(inside, { recursive: true, force: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    if (folder) await mkdir(outside, { recursive: true });
    else await writeFile(outside, 'decoy\n');
  }
  await symlink(outside, inside);
}

/** Replaces what is at `place` of the run folder with a link into the decoy. */
async function linkOut(target: PlantTarget, place: string, folder: boolean): Promise<void> {
  const outside = path.join(target.decoy, `planted-${place.replaceAll('/', '-')}`);
  await copyOut(path.join(target.runFolder, place), outside, folder);
}

/** Replaces what is at `place` (a file) with what `make` creates there. */
async function replace(
  target: PlantTarget,
  place: string,
  make: (file: string) => Promise<void | (() => Promise<void>)>,
): Promise<void | (() => Promise<void>)> {
  const file = path.join(target.runFolder, place);
  await mkdir(path.dirname(file), { recursive: true });
  await rm(file, { recursive: true, force: true });
  return make(file);
}

const fifo = async (file: string) => {
  execFileSync('mkfifo', [file]);
};
const socket = async (file: string) => {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(file, resolve));
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
};
const folderInstead = async (file: string) => {
  await mkdir(file);
  await writeFile(path.join(file, 'inside.txt'), 'a folder where a file should be\n');
};
const linkTo = (device: string) => async (file: string) => {
  await symlink(device, file);
};
const empty = async (file: string) => {
  await writeFile(file, '');
};
const huge = async (file: string) => {
  await writeFile(file, '');
  // Sparse: over the store's 32 MiB value limit without using the disk.
  await truncate(file, 40 * 1024 * 1024);
};
const unreadable = async (file: string) => {
  await writeFile(file, '{"version":1}');
  await chmod(file, 0o000);
};

const IS_ROOT = process.getuid?.() === 0;

const message = () => `inboxes/lead/${randomUUID()}.json`;

/** The rows: links of every kind at every level, then every odd file kind in every file role. */
export const PLANTED_KINDS: readonly PlantedFileRow[] = [
  ...FILE_PLACES.map(
    (place): PlantedFileRow => ({
      name: `a link out of the home at ${place}`,
      plant: (target) => linkOut(target, place, false),
    }),
  ),
  ...FOLDER_PLACES.map(
    (place): PlantedFileRow => ({
      name: `a folder link out of the home at ${place}/`,
      plant: (target) => linkOut(target, place, true),
    }),
  ),
  {
    name: "a link out of the home at a member's worktree",
    plant: async (target) => {
      const worktree = path.join(target.home, 'worktrees', target.runId, 'w1');
      await copyOut(worktree, path.join(target.decoy, 'planted-worktree'), true);
    },
  },
  ...(['state.json', 'events.jsonl', 'tasks/1.json'] as const).map(
    (place): PlantedFileRow => ({
      name: `a FIFO at ${place}`,
      plant: (target) => replace(target, place, fifo),
    }),
  ),
  { name: 'a FIFO as a message', plant: (target) => replace(target, message(), fifo) },
  { name: 'a socket at tasks/1.json', plant: (target) => replace(target, 'tasks/1.json', socket) },
  ...(['state.json', 'tasks/1.json'] as const).map(
    (place): PlantedFileRow => ({
      name: `a folder at ${place}`,
      plant: (target) => replace(target, place, folderInstead),
    }),
  ),
  { name: 'a folder as a message', plant: (target) => replace(target, message(), folderInstead) },
  ...(['tasks/1.json', 'events.jsonl'] as const).map(
    (place): PlantedFileRow => ({
      name: `a link to /dev/zero at ${place}`,
      plant: (target) => replace(target, place, linkTo('/dev/zero')),
    }),
  ),
  {
    name: 'a link to /dev/null at state.json',
    plant: (target) => replace(target, 'state.json', linkTo('/dev/null')),
  },
  // As root a mode changes nothing the process sees: the rows would repeat the baseline.
  ...(IS_ROOT ? [] : (['state.json', 'tasks/1.json'] as const)).map(
    (place): PlantedFileRow => ({
      name: `an unreadable file at ${place}`,
      plant: (target) => replace(target, place, unreadable),
    }),
  ),
  ...(['state.json', 'tasks/1.json', 'events.jsonl'] as const).map(
    (place): PlantedFileRow => ({
      name: `an empty file at ${place}`,
      plant: (target) => replace(target, place, empty),
    }),
  ),
  ...(['tasks/1.json', 'state.json'] as const).map(
    (place): PlantedFileRow => ({
      name: `a huge file at ${place}`,
      plant: (target) => replace(target, place, huge),
    }),
  ),
  { name: 'a huge message', plant: (target) => replace(target, message(), huge) },
  {
    name: 'a torn state.json',
    plant: (target) =>
      replace(target, 'state.json', (file) => writeFile(file, '{"version":1,"runId":')),
  },
];
