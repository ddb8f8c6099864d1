import { mkdir, readdir, stat, utimes } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileStore } from '../storage/index.js';
import { runPaths } from '../storage/teamkit-home.js';
import { makeTempFolder } from '../test-support/temp-folder.js';
import { createRunState, listRuns, transitionRun } from './run-state-store.js';
import { sweepRuns } from './sweep-runs.js';
import { makeClock, makeSpec } from './test-support/temp-home.js';

describe('sweepRuns', () => {
  let home: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ dir: home, cleanup } = await makeTempFolder('teamkit-state-'));
  });
  afterEach(async () => cleanup());

  it('removes deleted runs and failed runs past retention, and nothing else', async () => {
    const clock = makeClock();
    const make = async (path: string[]) => {
      const state = await createRunState(
        home,
        { spec: makeSpec(['writer']), teamSource: { scope: 'inline' }, hostId: 'test' },
        { store: createFileStore({ root: home }), now: clock.now },
      );
      for (const to of path)
        await transitionRun(home, state.runId, to as never, {
          store: createFileStore({ root: home }),
          now: clock.now,
        });
      return state.runId;
    };
    const deleted = await make(['active', 'deleting', 'deleted']);
    const oldFailed = await make(['failed']);
    const active = await make(['active']);
    const orphaned = await make(['active', 'orphaned']);
    clock.advance(2 * 60 * 60_000);
    const newFailed = await make(['failed']);
    const creating = await make([]);
    // What a removal cut short leaves: the run folder renamed aside, long ago.
    const leftover = path.join(home, 'runtime', '.trash-leftover');
    await mkdir(path.join(leftover, 'inboxes'), { recursive: true });
    await utimes(leftover, new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));

    const report = await sweepRuns(home, {
      store: createFileStore({ root: home }),
      now: clock.now,
      failedRetentionMs: 60 * 60_000,
    });
    expect(report.removed.map((r) => [r.runId, r.status]).sort()).toEqual(
      [
        [deleted, 'deleted'],
        [oldFailed, 'failed'],
      ].sort(),
    );
    expect(report.removedLeftovers).toBe(1);
    await expect(stat(leftover)).rejects.toMatchObject({ code: 'ENOENT' });
    for (const gone of [deleted, oldFailed]) {
      await expect(stat(runPaths(home, gone).root)).rejects.toMatchObject({ code: 'ENOENT' });
    }
    const left = (await listRuns(home, { store: createFileStore({ root: home }) })).runs
      .map((r) => r.runId)
      .sort();
    expect(left).toEqual([active, orphaned, newFailed, creating].sort());
    expect((await readdir(path.join(home, 'runtime'))).sort()).toEqual(left);
    expect(
      (await sweepRuns(home, { store: createFileStore({ root: home }), now: clock.now })).removed,
    ).toEqual([]);
  });

  it('sweeps only runs of its own host kind when given one, and keeps completed runs', async () => {
    const make = async (hostId: string, path: string[]) => {
      const state = await createRunState(
        home,
        {
          spec: makeSpec(['writer']),
          teamSource: { scope: 'inline' },
          hostId,
        },
        { store: createFileStore({ root: home }) },
      );
      for (const to of path)
        await transitionRun(home, state.runId, to as never, {
          store: createFileStore({ root: home }),
        });
      return state.runId;
    };
    const ours = await make('process', ['active', 'deleting', 'deleted']);
    const theirs = await make('opencode', ['active', 'deleting', 'deleted']);
    const completed = await make('process', ['active', 'completed']);
    const report = await sweepRuns(home, {
      store: createFileStore({ root: home }),
      hostId: 'process',
    });
    expect(report.removed.map((entry) => entry.runId)).toEqual([ours]);
    expect(report.skipped).toEqual([{ runId: theirs, hostId: 'opencode' }]);
    expect(
      (await listRuns(home, { store: createFileStore({ root: home }) })).runs
        .map((run) => run.runId)
        .sort(),
    ).toEqual([theirs, completed].sort());
    expect(
      (await sweepRuns(home, { store: createFileStore({ root: home }) })).removed.map(
        (entry) => entry.runId,
      ),
    ).toEqual([theirs]);
  });
});
