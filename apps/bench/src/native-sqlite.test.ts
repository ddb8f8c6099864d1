import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { ALL_FIGURES } from './figures/all-figures.js';
import { ensureSqliteBuilt, SQLITE_FIGURES } from './native-sqlite.js';

describe('better-sqlite3, built for the benchmarks only', () => {
  it('is not built by pnpm install', async () => {
    const workspace = await readFile(
      new URL('../../../pnpm-workspace.yaml', import.meta.url),
      'utf8',
    );
    expect(workspace).toMatch(/^allowBuilds:\n(?: {2}.+\n)*? {2}better-sqlite3: false$/m);
  });

  it('is ensured before the figures with a SQLite baseline, and a built one is left alone', async () => {
    const ids = ALL_FIGURES.map((figure) => figure.id);
    for (const id of SQLITE_FIGURES) expect(ids).toContain(id);
    const logged: string[] = [];
    expect(await ensureSqliteBuilt((line) => logged.push(line))).toBeUndefined();
    expect(logged).toEqual([]);
  });
});
