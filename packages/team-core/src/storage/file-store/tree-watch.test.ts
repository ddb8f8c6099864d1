import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { StoreChange } from '../teamkit-store.js';
import { useTempFolder } from '../test-support/workers.js';
import { createFileStore } from './create-file-store.js';

let folder: string;
useTempFolder((created) => {
  folder = created;
});

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(10);
  }
}

describe('file store watches', () => {
  it('heal by their timed comparison alone when no file event arrives', async () => {
    const store = createFileStore({ root: path.join(folder, 'home'), watchEvents: false });
    const seen: StoreChange[] = [];
    const stop = await store.watch('runtime', (changes) => seen.push(...changes), {
      reconcileIntervalMs: 150,
    });
    await store.put('runtime/r/state.json', '{}');
    await store.append('runtime/r/events.jsonl', '{"e":1}');
    await until(() => seen.length >= 2, 'the timed comparison to report both');
    expect(seen).toEqual(
      expect.arrayContaining([
        { key: 'runtime/r/state.json', kind: 'put' },
        { key: 'runtime/r/events.jsonl', kind: 'put' },
      ]),
    );
    await stop();
  });

  it('report puts and deletes from file events alone, in folders made after the watch began', async () => {
    const store = createFileStore({ root: path.join(folder, 'home') });
    const seen: StoreChange[] = [];
    const errors: unknown[] = [];
    // No timed comparison runs during the test: only file events can report.
    const stop = await store.watch('runtime', (changes) => seen.push(...changes), {
      reconcileIntervalMs: 600_000,
      onError: (error) => errors.push(error),
    });
    await store.put('runtime/r/tasks/1.json', '{"n":1}');
    await until(
      () => seen.some((change) => change.key === 'runtime/r/tasks/1.json'),
      'the put in a new folder',
    );
    await store.put('runtime/r/tasks/1.json', '{"n":2}');
    await until(() => seen.length >= 2, 'the second put');
    await store.remove('runtime/r/tasks/1.json');
    await until(
      () => seen.some((change) => change.kind === 'delete'),
      'the removal (a tombstone link)',
    );
    await stop();
    expect(seen).toEqual([
      { key: 'runtime/r/tasks/1.json', kind: 'put' },
      { key: 'runtime/r/tasks/1.json', kind: 'put' },
      { key: 'runtime/r/tasks/1.json', kind: 'delete' },
    ]);
    expect(errors).toEqual([]);
  });

  it('report keys only, never the store revision links, temp files or lock folders', async () => {
    const store = createFileStore({ root: path.join(folder, 'home') });
    const seen: StoreChange[] = [];
    const stop = await store.watch('', (changes) => seen.push(...changes), {
      reconcileIntervalMs: 100,
    });
    const first = await store.create('runtime/r/state.json', '1');
    await store.update('runtime/r/state.json', '2', first);
    await store.withLock('runtime/r/state.json', async () => {
      fs.writeFileSync(path.join(folder, 'home', 'runtime', 'r', 'visible.txt'), 'x');
    });
    await until(
      () => seen.some((change) => change.key === 'runtime/r/visible.txt'),
      'the file written under the lock',
    );
    await delay(300);
    await stop();
    const keys = [...new Set(seen.map((change) => change.key))].sort();
    expect(keys).toEqual(['runtime/r/state.json', 'runtime/r/visible.txt']);
  });

  it('sends watcher errors to onError and never to the process', async () => {
    const store = createFileStore({ root: path.join(folder, 'home') });
    const errors: unknown[] = [];
    const stop = await store.watch('runtime', () => {}, {
      reconcileIntervalMs: 100,
      onError: (error) => errors.push(error),
    });
    fs.rmSync(path.join(folder, 'home', 'runtime'), { recursive: true });
    await until(() => errors.length > 0, 'the missing folder to be reported');
    await stop();
  });
});
