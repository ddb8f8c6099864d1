import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ReadOutcome, TeamkitStore } from '../teamkit-store.js';
import { useTempFolder } from '../test-support/workers.js';
import { createFileStore } from './create-file-store.js';

let folder: string;
useTempFolder((created) => {
  folder = created;
});

const KEY = 'runtime/r/tasks/7.json';
const SIBLING = 'runtime/r/tasks/1.json';
const home = () => path.join(folder, 'home');
const tasksFolder = () => path.join(home(), 'runtime', 'r', 'tasks');
const file = (name = '7.json') => path.join(tasksFolder(), name);
const revisions = () => path.join(tasksFolder(), '.rev');
const inoOf = (target: string) => String(fs.lstatSync(target).ino);

/** What `read` gives for `key`, as a `readMany` outcome. */
async function readOutcome(store: TeamkitStore, key: string): Promise<ReadOutcome> {
  try {
    return { value: await store.read(key) };
  } catch (error) {
    return { error: error as never };
  }
}

/** `readMany` of the key and its sibling, which must both be what `read` gives. */
async function expectSameAsRead(store: TeamkitStore): Promise<ReadOutcome[]> {
  const many = await store.readMany([KEY, SIBLING]);
  expect(many).toEqual([await readOutcome(store, KEY), await readOutcome(store, SIBLING)]);
  return many;
}

/** A writer frozen between its commit (the successor link) and its publish (the rename). */
function commitWithoutPublishing(text: string, predecessorIno: string): string {
  const temp = path.join(tasksFolder(), `.tmp-stalled-${predecessorIno}`);
  fs.writeFileSync(temp, text, { mode: 0o600 });
  fs.linkSync(temp, path.join(revisions(), `7.json@${predecessorIno}`));
  return temp;
}

describe('readMany on the file store', () => {
  it('follows a revision committed and not yet published, and steps past a late publish of an older one', async () => {
    const store = createFileStore({ root: home() });
    await store.create(SIBLING, 'sibling');
    const first = await store.create(KEY, 'one');
    const stalled = commitWithoutPublishing('committed, not published', first.slice(1));
    expect(fs.readFileSync(file(), 'utf8')).toBe('one');
    const [committed] = await expectSameAsRead(store);
    expect(committed).toEqual({
      value: { text: 'committed, not published', revision: `i${inoOf(stalled)}` },
    });
    const newest = await store.update(KEY, 'newest', `i${inoOf(stalled)}`);
    // The frozen writer resumes and renames its older revision over the newest.
    fs.renameSync(stalled, file());
    expect(fs.readFileSync(file(), 'utf8')).toBe('committed, not published');
    const [afterLatePublish] = await expectSameAsRead(store);
    expect(afterLatePublish).toEqual({ value: { text: 'newest', revision: newest } });
  });

  it('reads a removed value as absent, even after a late publish behind its tombstone', async () => {
    const store = createFileStore({ root: home() });
    await store.create(SIBLING, 'sibling');
    const first = await store.create(KEY, 'one');
    const stalled = commitWithoutPublishing('stalled before the removal', first.slice(1));
    await store.remove(KEY);
    expect((await expectSameAsRead(store))[0]).toEqual({ value: undefined });
    fs.renameSync(stalled, file());
    expect((await expectSameAsRead(store))[0]).toEqual({ value: undefined });
  });

  it('reads a file written without the store, replaced the usual way', async () => {
    const store = createFileStore({ root: home() });
    await store.create(SIBLING, 'sibling');
    await store.create(KEY, 'one');
    const temp = path.join(folder, 'outside.tmp');
    fs.writeFileSync(temp, 'written outside');
    fs.renameSync(temp, file());
    expect((await expectSameAsRead(store))[0]).toEqual({
      value: { text: 'written outside', revision: `i${inoOf(file())}` },
    });
  });

  it('gives a FIFO, a planted link and a cycle their errors in place, and reads the rest', async () => {
    const store = createFileStore({ root: home() });
    await store.create(SIBLING, 'sibling');
    await store.create(KEY, 'one');
    fs.linkSync(file(), path.join(revisions(), `7.json@${inoOf(file())}`));
    execFileSync('mkfifo', [file('8.json')]);
    fs.symlinkSync('/etc/hostname', file('9.json'));
    const outcomes = await store.readMany([
      KEY,
      'runtime/r/tasks/8.json',
      'runtime/r/tasks/9.json',
      SIBLING,
    ]);
    expect(outcomes.map((outcome) => ('error' in outcome ? outcome.error.code : 'value'))).toEqual([
      'CORRUPT_DOCUMENT',
      'CORRUPT_DOCUMENT',
      'PATH_TRAVERSAL',
      'value',
    ]);
    expect(outcomes[3]).toEqual(await readOutcome(store, SIBLING));
  });

  it('refuses a folder planted as a symlink for every key in it, and reads the other folders', async () => {
    const store = createFileStore({ root: home() });
    await store.create('runtime/r/state.json', 'state');
    fs.mkdirSync(path.join(folder, 'elsewhere'));
    fs.writeFileSync(path.join(folder, 'elsewhere', '1.json'), 'outside the home');
    fs.symlinkSync(path.join(folder, 'elsewhere'), tasksFolder());
    const outcomes = await store.readMany([SIBLING, 'runtime/r/state.json']);
    expect(
      'error' in (outcomes[0] as ReadOutcome) &&
        (outcomes[0] as { error: { code: string } }).error.code,
    ).toBe('PATH_TRAVERSAL');
    expect(outcomes[1]).toEqual({ value: await store.read('runtime/r/state.json') });
  });
});
