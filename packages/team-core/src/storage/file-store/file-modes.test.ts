import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { useTempFolder } from '../test-support/workers.js';
import { createFileStore } from './create-file-store.js';

let folder: string;
useTempFolder((created) => {
  folder = created;
});

let restoreUmask: number | undefined;
afterEach(() => {
  if (restoreUmask !== undefined) process.umask(restoreUmask);
  restoreUmask = undefined;
});

function modesUnder(root: string): string[] {
  const found: string[] = [`${fs.lstatSync(root).mode & 0o777} .`];
  const visit = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      // A removed value's tombstone is a symlink; a link's own mode means nothing.
      if (entry.isSymbolicLink()) continue;
      found.push(`${fs.lstatSync(full).mode & 0o777} ${path.relative(root, full)}`);
      if (entry.isDirectory()) visit(full);
    }
  };
  visit(root);
  return found;
}

describe('everything the file store creates is private to the user', () => {
  it.each([0o000, 0o022, 0o077])('under umask %o', async (mask) => {
    restoreUmask = process.umask(mask);
    const root = path.join(folder, 'home');
    const store = createFileStore({ root });
    const first = await store.create('runtime/r/state.json', '{}');
    await store.update('runtime/r/state.json', '{"v":2}', first);
    await store.put('runtime/r/team.json', '{}');
    await store.put('runtime/r/presence/lead.json', '{}');
    await store.remove('runtime/r/presence/lead.json');
    await store.append('runtime/r/events.jsonl', '{"e":1}');
    await store.addEntry('runtime/r/inboxes/lead', 'm1', '{}');
    await store.addEntry('runtime/r/inboxes/lead', 'm2', '{}');
    await store.moveEntries('runtime/r/inboxes/lead', ['m1'], ['unread'], 'reserved');
    await store.moveEntries('runtime/r/inboxes/lead', ['m2'], ['unread'], 'processed');
    await store.claimMarker('runtime/r/inboxes/.sent/1');
    const lockMode = await store.withLock(
      'runtime/r/tasks/.lock',
      async () => fs.statSync(path.join(root, 'runtime/r/tasks/.lock.lock')).mode & 0o777,
    );
    expect(lockMode).toBe(0o700);

    const modes = modesUnder(root);
    const wrong = modes.filter((line) => {
      const [mode, name] = line.split(' ') as [string, string];
      const isFolder = fs.lstatSync(path.join(root, name)).isDirectory();
      return Number(mode) !== (isFolder ? 0o700 : 0o600);
    });
    expect(wrong).toEqual([]);
    expect(modes.length).toBeGreaterThan(15);
  });
});
