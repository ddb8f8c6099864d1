import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileStore } from '../storage/index.js';
import { makeTempFolder } from '../test-support/temp-folder.js';
import type { LivenessProbe, RecoveryActions } from './resume-run.js';
import { resumeAll, resumeRun } from './resume-run.js';
import { startMember } from './run-bounds.js';
import {
  createRunState,
  readRunState,
  transitionMember,
  transitionRun,
  updateRunState,
} from './run-state-store.js';
import { makeClock, makeSpec } from './test-support/temp-home.js';

function fakeRecovery(): RecoveryActions & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    async releaseTasksOf(runId, member) {
      calls.push(`release ${runId.slice(0, 4)} ${member}`);
      return member === 'writer' ? ['3', '7'] : [];
    },
    async reclaimReservations(runId, member) {
      calls.push(`reclaim ${runId.slice(0, 4)} ${member}`);
      return member === 'writer' ? ['0b5c3f4e-1111-4111-8111-111111111111'] : [];
    },
    async rollbackRun(state) {
      calls.push(`rollback ${state.runId.slice(0, 4)}`);
      return ['worktree lead'];
    },
  };
}

const liveness = (alive: string[]): LivenessProbe => ({
  isAlive: async (sessionId) => alive.includes(sessionId),
});

describe('resume', () => {
  let home: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ dir: home, cleanup } = await makeTempFolder('teamkit-state-'));
  });
  afterEach(async () => cleanup());

  async function runningTeam(leadSession?: string) {
    const state = await createRunState(
      home,
      {
        spec: makeSpec(['writer', 'reviewer', 'tester']),
        teamSource: { scope: 'inline' },
        hostId: 'test',
        leadSessionId: leadSession,
      },
      { store: createFileStore({ root: home }) },
    );
    await transitionRun(home, state.runId, 'active', { store: createFileStore({ root: home }) });
    if (leadSession)
      await startMember(
        home,
        state.runId,
        'lead',
        { sessionId: leadSession },
        { store: createFileStore({ root: home }) },
      );
    await startMember(
      home,
      state.runId,
      'writer',
      { sessionId: 's-writer' },
      { store: createFileStore({ root: home }) },
    );
    await startMember(
      home,
      state.runId,
      'reviewer',
      { sessionId: 's-reviewer' },
      { store: createFileStore({ root: home }) },
    );
    await updateRunState(
      home,
      state.runId,
      (draft) => {
        const writer = draft.members.find((m) => m.name === 'writer');
        if (writer)
          writer.pendingDeliveryIds = [
            '0b5c3f4e-1111-4111-8111-111111111111',
            '0b5c3f4e-2222-4222-8222-222222222222',
          ];
      },
      { store: createFileStore({ root: home }) },
    );
    return state.runId;
  }

  it('marks dead members errored, releases their tasks and reclaims their reservations', async () => {
    const runId = await runningTeam();
    const recovery = fakeRecovery();
    const report = await resumeRun(home, runId, liveness(['s-reviewer']), {
      store: createFileStore({ root: home }),
      recovery,
    });
    expect(report.statusAfter).toBe('active');
    expect(report.members).toEqual([
      { member: 'lead', liveness: 'not-started', releasedTasks: [], reclaimedMessages: [] },
      {
        member: 'writer',
        liveness: 'dead',
        releasedTasks: ['3', '7'],
        reclaimedMessages: ['0b5c3f4e-1111-4111-8111-111111111111'],
      },
      { member: 'reviewer', liveness: 'alive', releasedTasks: [], reclaimedMessages: [] },
      { member: 'tester', liveness: 'not-started', releasedTasks: [], reclaimedMessages: [] },
    ]);
    expect(recovery.calls).toEqual([
      `release ${runId.slice(0, 4)} writer`,
      `reclaim ${runId.slice(0, 4)} writer`,
    ]);
    const state = await readRunState(home, runId, { store: createFileStore({ root: home }) });
    expect(state.members.map((m) => m.status)).toEqual([
      'pending',
      'errored',
      'running',
      'pending',
    ]);
    expect(state.members[1]?.pendingDeliveryIds).toEqual(['0b5c3f4e-2222-4222-8222-222222222222']);
  });

  it("judges another machine's members through otherMachines, this machine's through the probe", async () => {
    const runId = await runningTeam();
    await updateRunState(
      home,
      runId,
      (draft) => {
        for (const member of draft.members) {
          if (member.name === 'writer') member.machine = 'm-here';
          if (member.name === 'reviewer') member.machine = 'm-there';
        }
      },
      { store: createFileStore({ root: home }) },
    );
    const asked: string[] = [];
    const recovery = fakeRecovery();
    // Neither process runs here: only the heartbeat of the other machine's member says it lives.
    const report = await resumeRun(home, runId, liveness([]), {
      store: createFileStore({ root: home }),
      recovery,
      otherMachines: {
        machine: 'm-here',
        isAlive: async (askedRun, member) => {
          asked.push(`${askedRun === runId ? 'run' : askedRun} ${member.name} ${member.machine}`);
          return true;
        },
      },
    });
    expect(asked).toEqual(['run reviewer m-there']);
    expect(report.members.map((m) => [m.member, m.liveness])).toEqual([
      ['lead', 'not-started'],
      ['writer', 'dead'],
      ['reviewer', 'alive'],
      ['tester', 'not-started'],
    ]);
    const state = await readRunState(home, runId, { store: createFileStore({ root: home }) });
    expect(state.members.map((m) => m.status)).toEqual([
      'pending',
      'errored',
      'running',
      'pending',
    ]);

    // Once the other machine gives no sign, its member is gone too, with that reason.
    const again = await resumeRun(home, runId, liveness([]), {
      store: createFileStore({ root: home }),
      recovery,
      otherMachines: { machine: 'm-here', isAlive: async () => false },
    });
    expect(again.members.find((m) => m.member === 'reviewer')?.liveness).toBe('dead');
    const reviewer = (
      await readRunState(home, runId, { store: createFileStore({ root: home }) })
    ).members.find((m) => m.name === 'reviewer');
    expect(reviewer?.status).toBe('errored');
    expect(reviewer?.statusReason).toContain('machine m-there');
  });

  it('orphans the run when the lead session is dead', async () => {
    const runId = await runningTeam('s-lead');
    const report = await resumeRun(home, runId, liveness(['s-writer', 's-reviewer']), {
      store: createFileStore({ root: home }),
      recovery: fakeRecovery(),
    });
    expect(report.statusAfter).toBe('orphaned');
    const state = await readRunState(home, runId, { store: createFileStore({ root: home }) });
    expect(state.status).toBe('orphaned');
    expect(state.members[0]?.status).toBe('errored');
  });

  it('keeps everything when all are alive, and treats a failing probe as unknown, not dead', async () => {
    const runId = await runningTeam('s-lead');
    const recovery = fakeRecovery();
    const report = await resumeRun(
      home,
      runId,
      {
        isAlive: async (id) => {
          if (id === 's-writer') throw new Error('host unreachable');
          return true;
        },
      },
      { store: createFileStore({ root: home }), recovery },
    );
    expect(report.statusAfter).toBe('active');
    expect(report.members.find((m) => m.member === 'writer')?.liveness).toBe('unknown');
    expect(report.errors).toEqual(['writer: liveness probe failed: host unreachable']);
    expect(recovery.calls).toEqual([]);
    expect(
      (await readRunState(home, runId, { store: createFileStore({ root: home }) })).members.map(
        (m) => m.status,
      ),
    ).toEqual(['running', 'running', 'running', 'pending']);
  });

  it('terminates a member whose session ended after an approved shutdown', async () => {
    const runId = await runningTeam();
    await transitionMember(home, runId, 'reviewer', 'shutdown_approved', {
      store: createFileStore({ root: home }),
    });
    await resumeRun(home, runId, liveness(['s-writer']), {
      store: createFileStore({ root: home }),
    });
    expect(
      (await readRunState(home, runId, { store: createFileStore({ root: home }) })).members[2]
        ?.status,
    ).toBe('terminated');
  });

  it('fails and rolls back a run stuck in creating past the timeout, and leaves a fresh one', async () => {
    const clock = makeClock();
    const stuck = await createRunState(
      home,
      { spec: makeSpec(['writer']), teamSource: { scope: 'inline' }, hostId: 'test' },
      { store: createFileStore({ root: home }), now: clock.now },
    );
    clock.advance(11 * 60_000);
    const fresh = await createRunState(
      home,
      { spec: makeSpec(['writer']), teamSource: { scope: 'inline' }, hostId: 'test' },
      { store: createFileStore({ root: home }), now: clock.now },
    );
    const recovery = fakeRecovery();
    const report = await resumeAll(home, liveness([]), {
      store: createFileStore({ root: home }),
      recovery,
      now: clock.now,
    });
    expect(report.runs.map((r) => [r.runId, r.statusAfter])).toEqual([
      [stuck.runId, 'failed'],
      [fresh.runId, 'creating'],
    ]);
    expect(report.runs[0]?.removed).toEqual(['worktree lead']);
    expect(recovery.calls).toEqual([`rollback ${stuck.runId.slice(0, 4)}`]);
    expect(
      (await readRunState(home, stuck.runId, { store: createFileStore({ root: home }) })).status,
    ).toBe('failed');
  });

  it('resumes every working run end to end and reports a corrupt one without stopping', async () => {
    const first = await runningTeam();
    const second = await runningTeam('s-lead-2');
    const done = await createRunState(
      home,
      {
        spec: makeSpec(['x']),
        teamSource: { scope: 'inline' },
        hostId: 'test',
      },
      { store: createFileStore({ root: home }) },
    );
    await transitionRun(home, done.runId, 'failed', { store: createFileStore({ root: home }) });
    const { writeFile } = await import('node:fs/promises');
    const { runPaths } = await import('../storage/teamkit-home.js');
    const broken = await createRunState(
      home,
      {
        spec: makeSpec(['x']),
        teamSource: { scope: 'inline' },
        hostId: 'test',
      },
      { store: createFileStore({ root: home }) },
    );
    await writeFile(runPaths(home, broken.runId).state, 'not json');
    const report = await resumeAll(home, liveness(['s-reviewer', 's-writer']), {
      store: createFileStore({ root: home }),
      recovery: fakeRecovery(),
    });
    expect(report.runs.map((r) => [r.runId, r.statusAfter]).sort()).toEqual(
      [
        [first, 'active'],
        [second, 'orphaned'],
      ].sort(),
    );
    expect(report.problems).toHaveLength(1);
    expect(
      (await readRunState(home, done.runId, { store: createFileStore({ root: home }) })).status,
    ).toBe('failed');
  });

  it('touches only runs of its own host kind: another host’s run is skipped, or refused by name', async () => {
    const ours = await runningTeam('s-lead');
    const theirs = await createRunState(
      home,
      {
        spec: makeSpec(['writer']),
        teamSource: { scope: 'inline' },
        hostId: 'opencode',
        leadSessionId: 'ses_opencode_lead',
      },
      { store: createFileStore({ root: home }) },
    );
    await transitionRun(home, theirs.runId, 'active', { store: createFileStore({ root: home }) });
    await startMember(
      home,
      theirs.runId,
      'lead',
      { sessionId: 'ses_opencode_lead' },
      { store: createFileStore({ root: home }) },
    );
    await startMember(
      home,
      theirs.runId,
      'writer',
      { sessionId: 'ses_opencode_writer' },
      { store: createFileStore({ root: home }) },
    );
    // This host knows none of OpenCode's sessions: without the filter all would look dead.
    const probe = liveness(['s-lead', 's-writer', 's-reviewer']);
    const report = await resumeAll(home, probe, {
      store: createFileStore({ root: home }),
      hostId: 'test',
      recovery: fakeRecovery(),
    });
    expect(report.runs.map((entry) => entry.runId)).toEqual([ours]);
    expect(report.skipped).toEqual([{ runId: theirs.runId, hostId: 'opencode' }]);
    const untouched = await readRunState(home, theirs.runId, {
      store: createFileStore({ root: home }),
    });
    expect(untouched.status).toBe('active');
    expect(untouched.members.map((member) => member.status)).toEqual(['running', 'running']);
    await expect(
      resumeRun(home, theirs.runId, probe, {
        store: createFileStore({ root: home }),
        hostId: 'test',
        recovery: fakeRecovery(),
      }),
    ).rejects.toMatchObject({ code: 'HOST_MISMATCH' });
    expect(
      (await readRunState(home, theirs.runId, { store: createFileStore({ root: home }) })).status,
    ).toBe('active');
  });
});
