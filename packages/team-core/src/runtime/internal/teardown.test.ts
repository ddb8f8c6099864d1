import { rm, stat } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isTeamkitError } from '../../errors/index.js';
import { readRunState, transitionRun, updateRunState } from '../../state/index.js';
import { createFileStore, readRunEvents, runKeys } from '../../storage/index.js';
import { createTeamRuntime } from '../create-team-runtime.js';
import {
  crewTeam,
  makeRepo,
  makeRuntimeHome,
  recordingHost,
} from '../test-support/recording-host.js';

let home: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ home, cleanup } = await makeRuntimeHome());
});
afterEach(async () => cleanup());

const events = async (runId: string) =>
  (await readRunEvents(createFileStore({ root: home }), runKeys(runId).events)).events;

describe('the one teardown', () => {
  it('releases the open tasks of every member when a run stops', async () => {
    const runtime = await createTeamRuntime({
      store: createFileStore({ root: home }),
      home,
      host: recordingHost(),
    });
    const { runId } = await runtime.startRun(crewTeam(2), { leadSessionId: 'lead-session' });
    const lead = runtime.member(runId, 'lead');
    const first = await lead.createTask({ subject: 'one' });
    const second = await lead.createTask({ subject: 'two' });
    await runtime.member(runId, 'worker-1').claimTask(first.id);
    await runtime.member(runId, 'worker-2').claimTask(second.id);
    await runtime.member(runId, 'worker-2').startTask(second.id);
    const report = await runtime.stopRun(runId);
    expect(report.releasedTasks.sort()).toEqual([first.id, second.id].sort());
    expect(report.problems).toEqual([]);
    const tasks = (await runtime.status(runId)).tasks;
    expect(tasks.map((task) => [task.status, task.owner])).toEqual([
      ['pending', undefined],
      ['pending', undefined],
    ]);
  });

  it('stops at the first failing step and keeps the run deleting; tolerating failures finishes and reports each', async () => {
    const repo = await makeRepo(home);
    const runtime = await createTeamRuntime({
      store: createFileStore({ root: home }),
      home,
      host: recordingHost(),
    });
    const { runId } = await runtime.startRun(crewTeam(1, {}, true), {
      repo,
      leadSessionId: 'lead-session',
    });
    // The repository is gone, so git cannot remove the member's worktree.
    await rm(repo, { recursive: true, force: true });

    const strict = await runtime.stopRun(runId).catch((error) => error);
    expect(isTeamkitError(strict)).toBe(true);
    expect(
      (await readRunState(home, runId, { store: createFileStore({ root: home }) })).status,
    ).toBe('deleting');

    const tolerant = await runtime.stopRun(runId, { tolerateFailures: true });
    expect(tolerant.status).toBe('deleted');
    expect(tolerant.problems).toEqual([
      {
        step: 'remove-worktree',
        member: 'worker-1',
        code: strict.code,
        message: strict.message,
      },
    ]);
    expect((await events(runId)).at(-1)).toMatchObject({
      type: 'run.stopped',
      data: { problems: tolerant.problems },
    });
  });

  it('reports panes it has no tmux runner to close, and still ends the run', async () => {
    const runtime = await createTeamRuntime({
      store: createFileStore({ root: home }),
      home,
      host: recordingHost(),
    });
    const { runId } = await runtime.startRun(crewTeam(1), { leadSessionId: 'lead-session' });
    await updateRunState(
      home,
      runId,
      (draft) => {
        draft.tmuxLayout = { mode: 'detached-session', ownedSession: true, paneIds: {} };
        return draft;
      },
      { store: createFileStore({ root: home }) },
    );
    const report = await runtime.stopRun(runId);
    expect(report.status).toBe('deleted');
    expect(report.problems).toEqual([
      {
        step: 'close-panes',
        code: 'TMUX_UNAVAILABLE',
        message: expect.stringContaining('team tmux sweep'),
      },
    ]);
  });

  it('reports a failed start it could not fully undo, instead of dropping the failure', async () => {
    const host = recordingHost({ without: ['stopMember'] });
    const spawn = host.spawnMember.bind(host);
    host.spawnMember = async (input) => {
      if (input.member.name === 'worker-2') throw new Error('agent binary missing');
      return spawn(input);
    };
    const runtime = await createTeamRuntime({ store: createFileStore({ root: home }), home, host });
    const runId = '3f2b8c1d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
    await expect(
      runtime.startRun(crewTeam(2), { runId, leadSessionId: 'lead-session' }),
    ).rejects.toThrow('agent binary missing');
    expect((await events(runId)).at(-1)).toMatchObject({
      type: 'run.rolled_back',
      data: {
        reason: 'agent binary missing',
        problems: [
          { step: 'stop-session', member: 'worker-1', code: 'HOST_CAPABILITY_UNSUPPORTED' },
        ],
      },
    });
  });

  it('finishes a deletion cut short when the runtime resumes: sessions, worktrees, members', async () => {
    const repo = await makeRepo(home);
    const host = recordingHost();
    const first = await createTeamRuntime({ store: createFileStore({ root: home }), home, host });
    const { runId, state } = await first.startRun(crewTeam(1, {}, true), {
      repo,
      leadSessionId: 'lead-session',
    });
    await transitionRun(home, runId, 'deleting', {
      store: createFileStore({ root: home }),
      reason: 'stop',
    });
    const second = await createTeamRuntime({ store: createFileStore({ root: home }), home, host });
    const after = await readRunState(home, runId, { store: createFileStore({ root: home }) });
    expect(after.status).toBe('deleted');
    expect(after.members.map((member) => member.status)).toEqual(['terminated', 'terminated']);
    expect(host.stopped).toEqual(['s-worker-1-1']);
    const worktree = state.members.find((member) => member.name === 'worker-1')?.worktreePath;
    expect(worktree).toBeDefined();
    expect(await stat(worktree as string).catch(() => undefined)).toBeUndefined();
    expect((await events(runId)).find((event) => event.type === 'run.stopped')).toMatchObject({
      data: { finishedOnResume: true },
    });
    expect((await second.stopRun(runId)).keptWorktrees).toEqual([]);
  });
});
