import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isTeamkitError } from '../../errors/index.js';
import type { TeamkitStore } from '../teamkit-store.js';
import { useTempFolder } from '../test-support/workers.js';
import { createFileStore } from './create-file-store.js';

let folder: string;
useTempFolder((created) => {
  folder = created;
});

const home = () => path.join(folder, 'home');
const decoy = () => path.join(folder, 'decoy');
const at = (key: string) => path.join(home(), ...key.split('/'));

const RUN = 'runtime/r';
const INBOX = `${RUN}/inboxes/lead`;

/** Everything about a tree that a write could change: names, types, modes, bytes, times. */
function snapshot(root: string): string[] {
  const lines: string[] = [];
  const visit = (dir: string) => {
    for (const name of fs.readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      const info = fs.lstatSync(full);
      const rel = path.relative(root, full);
      if (info.isDirectory()) {
        lines.push(`d ${rel} ${info.mode} ${info.mtimeMs}`);
        visit(full);
      } else if (info.isSymbolicLink()) {
        lines.push(`l ${rel} ${fs.readlinkSync(full)}`);
      } else {
        const hash = createHash('sha256').update(fs.readFileSync(full)).digest('hex');
        lines.push(`f ${rel} ${info.mode} ${info.size} ${info.mtimeMs} ${hash}`);
      }
    }
  };
  lines.push(`root ${fs.lstatSync(root).mtimeMs}`);
  visit(root);
  return lines;
}

/** A run written by the store, and a decoy tree outside the home that must never change. */
async function seed(): Promise<{ stateRevision: string; taskRevision: string }> {
  const store = createFileStore({ root: home() });
  const stateRevision = await store.create(`${RUN}/state.json`, '{"status":"active"}');
  const taskRevision = await store.create(`${RUN}/tasks/1.json`, '{"id":"1"}');
  await store.put(`${RUN}/tasks/.highwatermark`, '1\n');
  await store.put(`${RUN}/team.json`, '{}');
  await store.put(`${RUN}/presence/lead.json`, '{}');
  await store.append(`${RUN}/events.jsonl`, '{"e":1}');
  await store.addEntry(INBOX, 'm1', '{"m":1}');
  await store.addEntry(INBOX, 'm2', '{"m":2}');
  await store.moveEntries(INBOX, ['m2'], ['unread'], 'processed');
  await store.claimMarker(`${RUN}/inboxes/.sent/1`);
  fs.mkdirSync(path.join(decoy(), 'dir', 'inner'), { recursive: true });
  fs.writeFileSync(path.join(decoy(), 'victim.txt'), 'outside, never to change\n');
  fs.writeFileSync(path.join(decoy(), 'dir', 'state.json'), '{"outside":true}\n');
  fs.writeFileSync(path.join(decoy(), 'dir', 'inner', '1.json'), '{"outside":true}\n');
  const old = new Date(Date.now() - 60_000);
  for (const entry of [decoy(), path.join(decoy(), 'dir'), path.join(decoy(), 'dir', 'inner')]) {
    fs.utimesSync(entry, old, old);
  }
  return { stateRevision, taskRevision };
}

type Operation = [name: string, run: (store: TeamkitStore) => Promise<unknown>];

/** Every operation that could write at or under the planted position. */
function operationsAt(revisions: { stateRevision: string; taskRevision: string }): Operation[] {
  return [
    ['read state', (s) => s.read(`${RUN}/state.json`)],
    ['update state', (s) => s.update(`${RUN}/state.json`, '{"x":1}', revisions.stateRevision)],
    ['put state', (s) => s.put(`${RUN}/state.json`, '{"x":2}')],
    ['remove state', (s) => s.remove(`${RUN}/state.json`)],
    ['put team', (s) => s.put(`${RUN}/team.json`, '{"x":3}')],
    ['update task', (s) => s.update(`${RUN}/tasks/1.json`, '{"x":4}', revisions.taskRevision)],
    ['create task', (s) => s.create(`${RUN}/tasks/2.json`, '{"x":5}')],
    ['put watermark', (s) => s.put(`${RUN}/tasks/.highwatermark`, '2\n')],
    ['list tasks', (s) => s.list(`${RUN}/tasks`)],
    ['append event', (s) => s.append(`${RUN}/events.jsonl`, '{"e":2}')],
    ['read events', (s) => s.readLog(`${RUN}/events.jsonl`)],
    ['add message', (s) => s.addEntry(INBOX, 'm3', '{"m":3}')],
    ['read message', (s) => s.readEntry(INBOX, 'm1', 'unread')],
    ['acknowledge', (s) => s.moveEntries(INBOX, ['m1'], ['unread'], 'processed')],
    ['claim slot', (s) => s.claimMarker(`${RUN}/inboxes/.sent/2`)],
    ['claim taken slot', (s) => s.claimMarker(`${RUN}/inboxes/.sent/1`)],
    ['put presence', (s) => s.put(`${RUN}/presence/lead.json`, '{"x":6}')],
    ['lock state', (s) => s.withLock(`${RUN}/state.json`, async () => 'held')],
    ['clean up', (s) => s.removeStaleTemporaries(RUN, 0)],
  ];
}

const FILE_POSITIONS = [
  `${RUN}/state.json`,
  `${RUN}/team.json`,
  `${RUN}/tasks/1.json`,
  `${RUN}/tasks/.highwatermark`,
  `${RUN}/events.jsonl`,
  `${INBOX}/.version`,
  `${INBOX}/m1.json`,
  `${RUN}/inboxes/.sent/1`,
  `${RUN}/presence/lead.json`,
];

const FOLDER_POSITIONS = [
  'runtime',
  RUN,
  `${RUN}/tasks`,
  `${RUN}/inboxes`,
  INBOX,
  `${INBOX}/processed`,
  `${RUN}/inboxes/.sent`,
  `${RUN}/presence`,
  `${RUN}/.rev`,
  `${RUN}/tasks/.rev`,
  `${RUN}/state.json.lock`,
  `${RUN}/inboxes/lead.lock`,
];

async function runAll(position: string, operations: Operation[]) {
  const store = createFileStore({ root: home(), lock: { timeoutMs: 300, staleMs: 2_000 } });
  const outcomes: { name: string; code: string; message: string }[] = [];
  for (const [name, run] of operations) {
    try {
      await run(store);
      outcomes.push({ name, code: 'ok', message: '' });
    } catch (error) {
      expect(isTeamkitError(error), `${name} with ${position}: ${String(error)}`).toBe(true);
      const { code, message } = error as { code: string; message: string };
      outcomes.push({ name, code, message });
    }
  }
  return outcomes;
}

describe('planted symlinks never lead a write out of the home', () => {
  describe.each(['an existing file', 'a missing file (dangling)'])('to %s', (targetKind) => {
    it.each(FILE_POSITIONS)('at %s', async (position) => {
      const revisions = await seed();
      const target = path.join(
        decoy(),
        targetKind === 'an existing file' ? 'victim.txt' : 'new.txt',
      );
      fs.rmSync(at(position));
      fs.symlinkSync(target, at(position));
      const before = snapshot(decoy());
      const outcomes = await runAll(position, operationsAt(revisions));
      expect(snapshot(decoy())).toEqual(before);
      // Whatever touches the planted name itself is refused, naming it.
      const touching = outcomes.filter((outcome) => outcome.code === 'PATH_TRAVERSAL');
      expect(touching.length, JSON.stringify(outcomes)).toBeGreaterThan(0);
      for (const outcome of touching) expect(outcome.message).toContain(position);
    });
  });

  describe.each(['an existing folder', 'a missing folder (dangling)'])('to %s', (targetKind) => {
    it.each(FOLDER_POSITIONS)('at %s', async (position) => {
      const revisions = await seed();
      const target = path.join(decoy(), targetKind === 'an existing folder' ? 'dir' : 'newdir');
      fs.rmSync(at(position), { recursive: true, force: true });
      fs.symlinkSync(target, at(position));
      const before = snapshot(decoy());
      const outcomes = await runAll(position, operationsAt(revisions));
      expect(snapshot(decoy())).toEqual(before);
      expect(fs.existsSync(path.join(decoy(), 'newdir'))).toBe(false);
      const refused = outcomes.filter((outcome) => outcome.code === 'PATH_TRAVERSAL');
      if (!position.endsWith('.lock')) {
        expect(refused.length, JSON.stringify(outcomes)).toBeGreaterThan(0);
        for (const outcome of refused) expect(outcome.message).toContain(position);
      }
    });
  });

  it('catches a folder swapped for a link after the store last used it', async () => {
    const revisions = await seed();
    const store = createFileStore({ root: home() });
    await store.put(`${RUN}/tasks/3.json`, '{}');
    fs.renameSync(at(`${RUN}/tasks`), path.join(folder, 'moved-tasks'));
    fs.symlinkSync(path.join(decoy(), 'dir'), at(`${RUN}/tasks`));
    const before = snapshot(decoy());
    const error = await store.put(`${RUN}/tasks/4.json`, '{}').catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'PATH_TRAVERSAL' });
    await expect(
      store.update(`${RUN}/tasks/1.json`, '{}', revisions.taskRevision),
    ).rejects.toMatchObject({
      code: 'PATH_TRAVERSAL',
    });
    expect(snapshot(decoy())).toEqual(before);
  });

  it('refuses a symlink planted among the revision links', async () => {
    await seed();
    const store = createFileStore({ root: home() });
    const ino = fs.statSync(at(`${RUN}/state.json`)).ino;
    fs.symlinkSync(path.join(decoy(), 'victim.txt'), at(`${RUN}/.rev/state.json@${ino}`));
    const before = snapshot(decoy());
    await expect(store.read(`${RUN}/state.json`)).rejects.toMatchObject({ code: 'PATH_TRAVERSAL' });
    await expect(store.put(`${RUN}/state.json`, '{}')).rejects.toMatchObject({
      code: 'PATH_TRAVERSAL',
    });
    expect(snapshot(decoy())).toEqual(before);
  });
});
