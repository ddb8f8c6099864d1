import { copyFile, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isTeamkitError } from '../errors/index.js';
import { createFileStore } from '../storage/index.js';
import { runPaths } from '../storage/teamkit-home.js';
import { makeTempFolder } from '../test-support/temp-folder.js';
import { createRunState, listRuns, readRunState, transitionRun } from './run-state-store.js';
import { makeSpec } from './test-support/temp-home.js';

describe('a state.json in the folder of another run', () => {
  let home: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ dir: home, cleanup } = await makeTempFolder('teamkit-state-'));
  });
  afterEach(async () => cleanup());

  it('is refused as corrupt, changes neither run, and is reported by listRuns', async () => {
    const real = await createRunState(
      home,
      {
        spec: makeSpec(['writer']),
        teamSource: { scope: 'inline' },
        hostId: 'test',
      },
      { store: createFileStore({ root: home }) },
    );
    const stray = '6f1c1b4e-0000-4000-8000-000000000001';
    const strayPaths = runPaths(home, stray);
    await mkdir(strayPaths.root, { recursive: true });
    await copyFile(runPaths(home, real.runId).state, strayPaths.state);
    const before = await readFile(strayPaths.state, 'utf8');
    for (const attempt of [
      () => readRunState(home, stray, { store: createFileStore({ root: home }) }),
      () => transitionRun(home, stray, 'active', { store: createFileStore({ root: home }) }),
    ]) {
      const error = await attempt().catch((caught: unknown) => caught);
      expect(isTeamkitError(error, 'CORRUPT_DOCUMENT'), String(error)).toBe(true);
    }
    expect(await readFile(strayPaths.state, 'utf8')).toBe(before);
    expect(
      (await readRunState(home, real.runId, { store: createFileStore({ root: home }) })).status,
    ).toBe('creating');
    const listing = await listRuns(home, { store: createFileStore({ root: home }) });
    expect(listing.runs.map((run) => run.runId)).toEqual([real.runId]);
    expect(listing.problems).toEqual([
      expect.objectContaining({
        code: 'CORRUPT_DOCUMENT',
        path: path.relative(home, strayPaths.state),
      }),
    ]);
  });
});
