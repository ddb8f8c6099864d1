import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RunIdSchema } from '../schema/names.js';
import { createFileStore } from '../storage/file-store/create-file-store.js';
import { createMemoryStore } from '../storage/memory-store/create-memory-store.js';
import {
  homeFolderHoldsNoRuns,
  isRunId,
  listRunIds,
  looksFinished,
  RUN_ID_PATTERN,
} from './index.js';

const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

describe('isRunId', () => {
  it('is the very rule of RunIdSchema', () => {
    expect(RUN_ID_PATTERN.source).toBe(
      (RunIdSchema._zod.def as { pattern: RegExp }).pattern.source,
    );
    for (const name of [
      'b4acdd41-428d-46e7-94aa-d8934c0691e5',
      'B4ACDD41-428D-46E7-94AA-D8934C0691E5',
      '00000000-0000-0000-0000-000000000000',
      'b4acdd41-428d-96e7-94aa-d8934c0691e5',
      'b4acdd41',
      'abc-def',
      '.trash-b4acdd41-428d-46e7-94aa-d8934c0691e5',
    ]) {
      expect(isRunId(name), name).toBe(RunIdSchema.safeParse(name).success);
    }
  });
});

describe('listRunIds', () => {
  it("lists the home's run folders and ignores every other name", async () => {
    const home = mkdtempSync(path.join(tmpdir(), 'teamkit-run-listing-'));
    homes.push(home);
    const runs = ['0f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b', 'b4acdd41-428d-46e7-94aa-d8934c0691e5'];
    for (const run of runs)
      mkdirSync(path.join(home, 'runtime', run), { recursive: true, mode: 0o700 });
    mkdirSync(path.join(home, 'runtime', 'not-a-run'), { mode: 0o700 });
    writeFileSync(path.join(home, 'runtime', 'notes.txt'), 'x', { mode: 0o600 });
    expect((await listRunIds(createFileStore({ root: home }))).sort()).toEqual(runs);
  });

  it('lists nothing for a home without runs, and the runs of a given store', async () => {
    const home = mkdtempSync(path.join(tmpdir(), 'teamkit-run-listing-'));
    homes.push(home);
    expect(homeFolderHoldsNoRuns(home)).toBe(true);
    expect(await listRunIds(createFileStore({ root: home }))).toEqual([]);
    const store = createMemoryStore();
    await store.put('runtime/b4acdd41-428d-46e7-94aa-d8934c0691e5/state.json', '{}');
    await store.put('runtime/other/state.json', '{}');
    expect(await listRunIds(store)).toEqual(['b4acdd41-428d-46e7-94aa-d8934c0691e5']);
  });
});

describe('homeFolderHoldsNoRuns', () => {
  const runId = 'b4acdd41-428d-46e7-94aa-d8934c0691e5';
  const tempHome = () => {
    const home = mkdtempSync(path.join(tmpdir(), 'teamkit-run-listing-'));
    homes.push(home);
    return home;
  };

  it('says so only where the file store lists no runs, and without error', async () => {
    const cases: Record<string, [() => string, boolean]> = {
      'a home not made yet': [() => path.join(tempHome(), 'later'), true],
      'an empty home': [() => tempHome(), true],
      'a home that is a file': [
        () => {
          const file = path.join(tempHome(), 'home');
          writeFileSync(file, 'x');
          return file;
        },
        false,
      ],
      'a home under a file': [
        () => {
          const file = path.join(tempHome(), 'home');
          writeFileSync(file, 'x');
          return path.join(file, 'inside');
        },
        false,
      ],
      'a symlinked home without runs': [
        () => {
          const base = tempHome();
          mkdirSync(path.join(base, 'real'), { mode: 0o700 });
          symlinkSync(path.join(base, 'real'), path.join(base, 'link'));
          return path.join(base, 'link');
        },
        true,
      ],
      'runtime as a symlink': [
        () => {
          const home = tempHome();
          mkdirSync(path.join(home, 'elsewhere', runId), { recursive: true, mode: 0o700 });
          symlinkSync(path.join(home, 'elsewhere'), path.join(home, 'runtime'));
          return home;
        },
        false,
      ],
      'runtime as a file': [
        () => {
          const home = tempHome();
          writeFileSync(path.join(home, 'runtime'), 'x');
          return home;
        },
        false,
      ],
      'a dangling runtime link': [
        () => {
          const home = tempHome();
          symlinkSync(path.join(home, 'gone'), path.join(home, 'runtime'));
          return home;
        },
        false,
      ],
    };
    for (const [name, [make, empty]] of Object.entries(cases)) {
      const home = make();
      expect(homeFolderHoldsNoRuns(home), name).toBe(empty);
      if (empty) expect(await listRunIds(createFileStore({ root: home })), name).toEqual([]);
    }
  });
});

describe('looksFinished', () => {
  const runId = 'b4acdd41-428d-46e7-94aa-d8934c0691e5';
  const state = `runtime/${runId}/state.json`;

  it('is true only for a version 1 document whose status is a finished one', async () => {
    const cases: [string | undefined, boolean][] = [
      [undefined, false],
      [JSON.stringify({ version: 1, status: 'deleted' }), true],
      [JSON.stringify({ version: 1, status: 'completed', members: 'not checked here' }), true],
      [JSON.stringify({ version: 1, status: 'failed' }), true],
      [JSON.stringify({ version: 1, status: 'active' }), false],
      [JSON.stringify({ version: 1, status: 'shutdown_requested' }), false],
      [JSON.stringify({ version: 2, status: 'deleted' }), false],
      [JSON.stringify({ version: 1, status: 'gone' }), false],
      [JSON.stringify(['deleted']), false],
      ['null', false],
      ['{"version": 1, "status": "deleted"', false],
    ];
    for (const [text, expected] of cases) {
      const store = createMemoryStore();
      if (text !== undefined) await store.put(state, text);
      expect(await looksFinished(store, runId), String(text)).toBe(expected);
    }
  });

  it('is false, without throwing, for an unreadable document', async () => {
    const home = mkdtempSync(path.join(tmpdir(), 'teamkit-run-listing-'));
    homes.push(home);
    // A folder where the document should be: the store refuses to read it.
    mkdirSync(path.join(home, 'runtime', runId, 'state.json'), { recursive: true, mode: 0o700 });
    expect(await looksFinished(createFileStore({ root: home }), runId)).toBe(false);
  });
});
