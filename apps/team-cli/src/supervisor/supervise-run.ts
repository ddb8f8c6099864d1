import {
  createTaskList,
  isTeamkitError,
  type MemberStatus,
  readRunState,
  type TeamRuntime,
  transitionMember,
  updateRunState,
} from '@teamkit/team-core';
import { readWaitingMarker } from '../process-host/index.js';

/** Options for {@link superviseRun}. */
export interface SuperviseRunOptions {
  runtime: TeamRuntime;
  runId: string;
  /** How often to look; default 300 ms. */
  intervalMs?: number;
  signal?: AbortSignal;
  /** Called after every pass, e.g. to redraw a dashboard. */
  onPass?: () => Promise<void> | void;
}

/** Why {@link superviseRun} returned. */
export type SuperviseOutcome = 'finished' | 'stopped' | 'aborted';

const WORKING: readonly MemberStatus[] = ['running', 'idle'];

/**
 * Keeps a run of process members going, since nobody reports them idle: a member whose
 * process waits for mail counts as idle (so the parallel bound lets others start), a
 * member whose process died is marked errored and its tasks go back, approved shutdowns
 * are stopped, and waiting members start. Returns when every member is done, when the
 * run was stopped, or when `signal` aborts.
 */
export async function superviseRun(options: SuperviseRunOptions): Promise<SuperviseOutcome> {
  const { runtime, runId } = options;
  const intervalMs = options.intervalMs ?? 300;
  for (;;) {
    if (options.signal?.aborted) return 'aborted';
    const outcome = await superviseOnce(runtime, runId);
    await options.onPass?.();
    if (outcome !== undefined) return outcome;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, intervalMs);
      options.signal?.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          resolve();
        },
        { once: true },
      );
    });
  }
}

async function setStatusIf(
  home: string,
  runId: string,
  member: string,
  from: MemberStatus,
  to: MemberStatus,
): Promise<void> {
  try {
    await updateRunState(
      home,
      runId,
      (draft) => {
        const target = draft.members.find((candidate) => candidate.name === member);
        if (target?.status === from) {
          target.status = to;
          target.lastSeenAt = Date.now();
        }
        return draft;
      },
      { actor: 'supervisor' },
    );
  } catch (error) {
    // A member that wakes while the bound is full keeps working; it stays idle on paper.
    if (!isTeamkitError(error, 'BOUND_EXCEEDED')) throw error;
  }
}

/** One pass of the supervisor; returns an outcome when supervision should end. */
export async function superviseOnce(
  runtime: TeamRuntime,
  runId: string,
): Promise<SuperviseOutcome | undefined> {
  const home = runtime.home;
  const state = await readRunState(home, runId);
  if (state.status === 'deleted' || state.status === 'failed' || state.status === 'deleting')
    return 'stopped';
  const lead = state.members.find((member) => member.isLead);
  let leadGone = lead?.sessionId === undefined;
  for (const member of state.members) {
    if (member.sessionId === undefined || member.sessionId === state.leadSessionId) continue;
    if (!WORKING.includes(member.status)) continue;
    if (!(await runtime.host.isAlive(member.sessionId))) {
      if (member.isLead) {
        leadGone = true;
        continue;
      }
      // The state read above may predate the member's last act: a member that approved its
      // shutdown and exited meanwhile is done, not dead. Judge by the state as it is now.
      const now = (await readRunState(home, runId)).members.find(
        (candidate) => candidate.name === member.name,
      );
      if (now === undefined || !WORKING.includes(now.status)) continue;
      await transitionMember(home, runId, member.name, 'errored', {
        actor: 'supervisor',
        reason: 'the member process exited without an approved shutdown',
      }).catch(() => {});
      if (lead !== undefined)
        await createTaskList({ home, runId })
          .releaseTasksOf(lead.name, member.name)
          .catch(() => []);
      continue;
    }
    if (member.isLead) continue;
    const waiting = (await readWaitingMarker(home, runId, member.name)) !== undefined;
    if (member.status === 'running' && waiting)
      await setStatusIf(home, runId, member.name, 'running', 'idle');
    else if (member.status === 'idle' && !waiting)
      await setStatusIf(home, runId, member.name, 'idle', 'running');
  }
  await runtime.reconcile(runId);
  await runtime.spawnWaitingMembers(runId);
  const after = await readRunState(home, runId);
  const othersDone = after.members.every(
    (member) => member.isLead || member.status === 'terminated' || member.status === 'errored',
  );
  return othersDone && leadGone ? 'finished' : undefined;
}
