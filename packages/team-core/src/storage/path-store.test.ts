import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createPathStore } from './path-store.js';
import { useTempFolder } from './test-support/workers.js';

let folder: string;
useTempFolder((created) => {
  folder = created;
});

const store = createPathStore();

describe('path store', () => {
  it('writeVolatile creates missing folders and leaves exactly the new value, shorter or longer', async () => {
    const file = path.join(folder, 'a', 'b', '.version');
    await store.writeVolatile(file, 'first value, rather long');
    expect(await readFile(file, 'utf8')).toBe('first value, rather long');
    await store.writeVolatile(file, 'short');
    expect(await readFile(file, 'utf8')).toBe('short');
    await store.writeVolatile(file, 'a longer value again');
    expect(await readFile(file, 'utf8')).toBe('a longer value again');
  });

  it('writeVolatile overwrites the same file in place instead of replacing it', async () => {
    const file = path.join(folder, '.version');
    await writeFile(file, 'old');
    const before = await stat(file);
    await store.writeVolatile(file, 'new');
    expect((await stat(file)).ino).toBe(before.ino);
  });

  it('reports missing entries as absent rather than failing', async () => {
    const missing = path.join(folder, 'nope', 'file.json');
    expect(await store.readText(missing)).toBeUndefined();
    expect(await store.stat(missing)).toBeUndefined();
    expect(await store.list(path.join(folder, 'nope'))).toEqual([]);
    expect(await store.move(missing, path.join(folder, 'elsewhere.json'))).toBe(false);
    await expect(store.remove(missing)).resolves.toBeUndefined();
  });
});
