import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempFolder } from '../test-support/workers.js';
import { createFileStore } from './create-file-store.js';

let folder: string;
useTempFolder((created) => {
  folder = created;
});

const KEY = 'runtime/r/tasks/7.json';
const home = () => path.join(folder, 'home');
const file = () => path.join(home(), 'runtime', 'r', 'tasks', '7.json');
const revisions = () => path.join(home(), 'runtime', 'r', 'tasks', '.rev');
const inoOf = (target: string) => String(fs.lstatSync(target).ino);
const revisionOfFile = (target: string) => `i${inoOf(target)}`;

/**
 * Does what a writer does up to its commit point, then stops, as a writer frozen by
 * SIGSTOP (or killed) between committing and publishing would: the new revision is
 * linked as the successor of `predecessorIno`, and its temp file is not renamed yet.
 */
function commitWithoutPublishing(text: string, predecessorIno: string): string {
  const temp = path.join(path.dirname(file()), `.tmp-stalled-${predecessorIno}`);
  fs.writeFileSync(temp, text, { mode: 0o600 });
  fs.linkSync(temp, path.join(revisions(), `7.json@${predecessorIno}`));
  return temp;
}

describe('successor links', () => {
  it('lay out one link per revision beside the value, which stays a plain file', async () => {
    const store = createFileStore({ root: home() });
    const first = await store.create(KEY, 'one');
    const second = await store.update(KEY, 'two', first);
    const third = await store.update(KEY, 'three', second);
    expect(fs.readFileSync(file(), 'utf8')).toBe('three');
    expect(revisionOfFile(file())).toBe(third);
    const ino = (revision: string) => revision.slice(1);
    expect(fs.readdirSync(revisions()).sort()).toEqual(
      [`7.json@b${ino(first)}`, `7.json@${ino(first)}`, `7.json@${ino(second)}`].sort(),
    );
    expect(inoOf(path.join(revisions(), `7.json@${ino(second)}`))).toBe(ino(third));
    expect(await store.list('runtime/r/tasks')).toEqual(['7.json']);
  });

  it('fence a writer that stalled after committing: readers follow the links, its late publish changes nothing', async () => {
    const store = createFileStore({ root: home() });
    const first = await store.create(KEY, 'one');
    const stalled = commitWithoutPublishing('stalled writer', first.slice(1));
    // Readers see the committed revision although the file still holds the old one.
    expect(fs.readFileSync(file(), 'utf8')).toBe('one');
    const read = await store.read(KEY);
    expect(read).toEqual({ text: 'stalled writer', revision: revisionOfFile(stalled) });
    await expect(store.update(KEY, 'late', first)).rejects.toMatchObject({
      code: 'REVISION_CONFLICT',
    });
    const newest = await store.update(KEY, 'newest', read?.revision as string);
    expect(fs.readFileSync(file(), 'utf8')).toBe('newest');
    // The frozen writer resumes and publishes its older revision over the newer one.
    fs.renameSync(stalled, file());
    expect(fs.readFileSync(file(), 'utf8')).toBe('stalled writer');
    expect(await store.read(KEY)).toEqual({ text: 'newest', revision: newest });
    await expect(store.update(KEY, 'late', read?.revision as string)).rejects.toMatchObject({
      code: 'REVISION_CONFLICT',
    });
    // The next write publishes the head again for outside readers.
    await store.update(KEY, 'after', newest);
    expect(fs.readFileSync(file(), 'utf8')).toBe('after');
  });

  it('keep a revision whose writer died before publishing, even after its temp file is cleaned up', async () => {
    const store = createFileStore({ root: home() });
    const first = await store.create(KEY, 'one');
    const dead = commitWithoutPublishing('committed, never published', first.slice(1));
    const revision = revisionOfFile(dead);
    // Stale for certain: a file written this millisecond can carry an mtime past
    // Date.now(), which keeps it out of an olderThanMs of 0.
    const past = new Date(Date.now() - 60_000);
    fs.utimesSync(dead, past, past);
    expect(await store.removeStaleTemporaries('runtime/r', 0)).toBe(1);
    expect(fs.existsSync(dead)).toBe(false);
    expect(await store.read(KEY)).toEqual({ text: 'committed, never published', revision });
    await store.update(KEY, 'next', revision);
    expect(fs.readFileSync(file(), 'utf8')).toBe('next');
  });

  it('adopt a file written without the store, so its revision fences like any other', async () => {
    const store = createFileStore({ root: home() });
    const first = await store.create(KEY, 'one');
    // An outside tool replaces the file the usual way (temp + rename).
    const temp = path.join(folder, 'outside.tmp');
    fs.writeFileSync(temp, 'written outside');
    fs.renameSync(temp, file());
    const read = await store.read(KEY);
    expect(read?.text).toBe('written outside');
    const outside = read?.revision ?? '';
    await expect(store.update(KEY, 'late', first)).rejects.toMatchObject({
      code: 'REVISION_CONFLICT',
    });
    const next = await store.update(KEY, 'after the outside write', outside);
    const outsideIno = outside.slice(1);
    expect(fs.existsSync(path.join(revisions(), `7.json@b${outsideIno}`))).toBe(true);
    await expect(store.update(KEY, 'late', outside)).rejects.toMatchObject({
      code: 'REVISION_CONFLICT',
    });
    expect(await store.read(KEY)).toEqual({ text: 'after the outside write', revision: next });
  });

  it('remove a value with a tombstone that outside readers see as missing and late writers cannot undo', async () => {
    const store = createFileStore({ root: home() });
    const first = await store.create(KEY, 'one');
    const stalled = commitWithoutPublishing('stalled before the removal', first.slice(1));
    const stalledRevision = revisionOfFile(stalled);
    await store.remove(KEY);
    expect(fs.lstatSync(file()).isSymbolicLink()).toBe(true);
    expect(() => fs.readFileSync(file())).toThrow(/ENOENT/);
    expect(await store.read(KEY)).toBeUndefined();
    expect(await store.list('runtime/r/tasks')).toEqual([]);
    fs.renameSync(stalled, file());
    expect(await store.read(KEY)).toBeUndefined();
    await expect(store.update(KEY, 'late', stalledRevision)).rejects.toMatchObject({
      code: 'DOCUMENT_NOT_FOUND',
    });
    const again = await store.create(KEY, 'created again');
    expect(await store.read(KEY)).toEqual({ text: 'created again', revision: again });
    await expect(store.update(KEY, 'late', first)).rejects.toMatchObject({
      code: 'REVISION_CONFLICT',
    });
  });

  it('survive a creator that died between its birth link and publishing', async () => {
    const store = createFileStore({ root: home() });
    await store.create('runtime/r/tasks/1.json', 'sibling');
    const temp = path.join(path.dirname(file()), '.tmp-dead-creator');
    fs.writeFileSync(temp, 'never published');
    fs.linkSync(temp, path.join(revisions(), `7.json@b${inoOf(temp)}`));
    expect(await store.read(KEY)).toBeUndefined();
    const created = await store.create(KEY, 'created');
    expect(await store.read(KEY)).toEqual({ text: 'created', revision: created });
  });

  it('refuse a cycle of hand-made links as corrupt instead of looping', async () => {
    const store = createFileStore({ root: home() });
    await store.create(KEY, 'one');
    fs.linkSync(file(), path.join(revisions(), `7.json@${inoOf(file())}`));
    await expect(store.read(KEY)).rejects.toMatchObject({ code: 'CORRUPT_DOCUMENT' });
    await expect(store.put(KEY, 'x')).rejects.toMatchObject({ code: 'CORRUPT_DOCUMENT' });
    expect(fs.readFileSync(file(), 'utf8')).toBe('one');
  });
});
