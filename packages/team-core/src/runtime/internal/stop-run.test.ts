import { stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TeamSpecSchema } from '../../schema/index.js';
import { createRunState, readRunState } from '../../state/index.js';
import { createFileStore, readRunEvents, runKeys } from '../../storage/index.js';
import { createTeamRuntime } from '../create-team-runtime.js';
import {
  crewTeam,
  makeRepo,
  makeRuntimeHome,
  recordingHost,
  writeGlobalSettings,
} from '../test-support/recording-host.js';

let home: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ home, cleanup } = await makeRuntimeHome());
});
afterEach(async () => cleanup());

const exists = (target: string) =>
  stat(target).then(
    () => true,
    () => false,
  );

async function startWithWorktree() {
  const repo = await makeRepo(home);
  const runtime = await createTeamRuntime({
    store: createFileStore({ root: home }),
    home,
    host: recordingHost(),
  });
  const { runId, state } = await runtime.startRun(crewTeam(1, {}, true), {
    repo,
    leadSessionId: 'lead-session',
  });
  const worktree = state.members.find((member) => member.name === 'worker-1')?.worktreePath;
  if (worktree === undefined) throw new Error('worker-1 got no worktree');
  return { runtime, runId, worktree };
}

describe('stopRun', () => {
  it('a forced stop of a stopped run removes the dirty worktree the plain stop kept, and says so', async () => {
    const { runtime, runId, worktree } = await startWithWorktree();
    await writeFile(path.join(worktree, 'notes.txt'), 'unsaved\n');

    const plain = await runtime.stopRun(runId);
    expect(plain.status).toBe('deleted');
    expect(plain.keptWorktrees).toEqual([
      { member: 'worker-1', path: worktree, reason: expect.stringContaining('notes.txt') },
    ]);
    expect(await exists(worktree)).toBe(true);

    // Asked again without force, the stopped run still reports what it keeps.
    const again = await runtime.stopRun(runId);
    expect(again.keptWorktrees.map((kept) => kept.path)).toEqual([worktree]);
    expect(again.removedWorktrees).toEqual([]);

    const forced = await runtime.stopRun(runId, { force: true });
    expect(forced.status).toBe('deleted');
    expect(forced.removedWorktrees).toEqual([worktree]);
    expect(forced.keptWorktrees).toEqual([]);
    expect(forced.discardedWork).toEqual([
      {
        member: 'worker-1',
        path: worktree,
        files: [expect.stringContaining('notes.txt')],
        commits: [],
      },
    ]);
    expect(await exists(worktree)).toBe(false);
    const { events } = await readRunEvents(createFileStore({ root: home }), runKeys(runId).events);
    expect(events.at(-1)).toMatchObject({
      type: 'run.worktrees_removed',
      data: { removed: [worktree], force: true },
    });
  });

  it('keeps clean worktrees when worktree.cleanup is keep, until a forced stop (setting: worktree.cleanup)', async () => {
    await writeGlobalSettings(home, { 'worktree.cleanup': 'keep' });
    const { runtime, runId, worktree } = await startWithWorktree();
    const plain = await runtime.stopRun(runId);
    expect(plain.removedWorktrees).toEqual([]);
    expect(plain.keptWorktrees).toEqual([
      { member: 'worker-1', path: worktree, reason: expect.stringContaining('worktree.cleanup') },
    ]);
    expect(await exists(worktree)).toBe(true);
    const forced = await runtime.stopRun(runId, { force: true });
    expect(forced.removedWorktrees).toEqual([worktree]);
    expect(await exists(worktree)).toBe(false);
  });

  it('removes clean worktrees by default (remove-clean)', async () => {
    const { runtime, runId, worktree } = await startWithWorktree();
    const report = await runtime.stopRun(runId);
    expect(report.removedWorktrees).toEqual([worktree]);
    expect(await exists(worktree)).toBe(false);
  });

  it('rolls back a run stopped while creating, and marks it failed', async () => {
    const spec = TeamSpecSchema.parse(crewTeam(1));
    const state = await createRunState(
      home,
      {
        spec,
        teamSource: { scope: 'inline' },
        hostId: 'recording',
      },
      { store: createFileStore({ root: home }) },
    );
    const runtime = await createTeamRuntime({
      store: createFileStore({ root: home }),
      home,
      host: recordingHost(),
      resumeOnStart: false,
    });
    const report = await runtime.stopRun(state.runId);
    expect(report).toMatchObject({ runId: state.runId, status: 'failed', problems: [] });
    expect(
      (await readRunState(home, state.runId, { store: createFileStore({ root: home }) }))
        .statusReason,
    ).toBe('stopped while creating');
  });
});
