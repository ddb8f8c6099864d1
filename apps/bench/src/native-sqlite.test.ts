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

  it('is ensured before every figure with a SQLite baseline', () => {
    const ids = ALL_FIGURES.map((figure) => figure.id);
    for (const id of SQLITE_FIGURES) expect(ids).toContain(id);
  });

  it('leaves a module that loads alone, and builds one that does not, once', async () => {
    const builds: string[] = [];
    const build = async (folder: string) => builds.push(folder);
    const logged: string[] = [];
    const log = (line: string) => logged.push(line);
    expect(await ensureSqliteBuilt(log, { probe: () => undefined, build })).toBeUndefined();
    expect({ builds, logged }).toEqual({ builds: [], logged: [] });

    let built = false;
    const probe = () => (built ? undefined : 'Could not locate the bindings file');
    const building = async (folder: string) => {
      builds.push(folder);
      built = true;
    };
    expect(await ensureSqliteBuilt(log, { probe, build: building })).toBeUndefined();
    expect(builds).toHaveLength(1);
    expect(builds[0]).toMatch(/better-sqlite3$/);
    expect(logged).toHaveLength(1);
  });

  it('says why when the build fails or the built module still does not load', async () => {
    const failing = () => 'Could not locate the bindings file';
    const broken = async () => {
      throw Object.assign(new Error('npm failed'), { stderr: 'gyp ERR! not ok' });
    };
    expect(await ensureSqliteBuilt(() => {}, { probe: failing, build: broken })).toBe(
      'building better-sqlite3 failed: gyp ERR! not ok',
    );
    expect(await ensureSqliteBuilt(() => {}, { probe: failing, build: async () => {} })).toBe(
      'better-sqlite3 was built but does not load: Could not locate the bindings file',
    );
  });
});
