import { setTimeout as delay } from 'node:timers/promises';
import {
  isTeamkitError,
  type MemberStatus,
  openRun,
  type RunHandle,
  settleRun,
  type TeamRuntime,
} from '@teamkit/team-core';
import { errorMessage } from '@teamkit/team-core/errors';
import { findLead, WRITABLE_RUN_STATUSES } from '@teamkit/team-core/state';
import type { LockOptions } from '@teamkit/team-core/storage';
import { readWaitingMarker } from '../process-host/index.js';
import { beatMember, type HeartbeatJudge } from './member-heartbeats.js';

/** Options for {@link superviseRun}. */
export interface SuperviseRunOptions {
  runtime: TeamRuntime;
  runId: string;
  /** How often to look; default 300 ms. */
  intervalMs?: number;
  signal?: AbortSignal;
  /** Called after every pass, e.g. to redraw a dashboard. */
  onPass?: () => Promise<void> | void;
  /** Lock tuning for the supervisor's own state writes (the `lock.timeoutMs` setting). */
  lock?: LockOptions;
  /** Where the supervisor says what it could not do; default standard error (its log file). */
  log?: (line: string) => void;
  /** This machine, when the run is shared by several: see {@link SupervisePassOptions.machine}. */
  machine?: string;
  /** How members of other machines are judged; required with `machine`. */
  heartbeats?: HeartbeatJudge;
}

/**
 * Why {@link superviseRun} returned: the run `finished` (it is now `completed`), was
 * `stopped` (or otherwise stopped working), or the signal `aborted` supervision.
 */
export type SuperviseOutcome = 'finished' | 'stopped' | 'aborted';

const WORKING: readonly MemberStatus[] = ['running', 'idle'];

/**
 * Keeps a run of process members going, since nobody reports them idle: a member whose
 * process waits for mail counts as idle (so the parallel bound lets others start), a
 * member whose process died is marked errored and its tasks go back, approved shutdowns
 * are stopped, and waiting members start. Returns when the run completed (every member
 * done, the lead's process ended, every criterion met or waived), when the run was
 * stopped, or when `signal` aborts; a run whose criteria lack evidence keeps it watching.
 * A pass that finds the store unreachable (`STORE_UNAVAILABLE`) is logged and tried again.
 */
export async function superviseRun(options: SuperviseRunOptions): Promise<SuperviseOutcome> {
  const { runtime, runId } = options;
  const intervalMs = options.intervalMs ?? 300;
  const unreleased = new Set<string>();
  for (;;) {
    if (options.signal?.aborted) return 'aborted';
    let outcome: SuperviseOutcome | undefined;
    try {
      outcome = await superviseOnce(runtime, runId, {
        ...(options.lock === undefined ? {} : { lock: options.lock }),
        ...(options.log === undefined ? {} : { log: options.log }),
        ...(options.machine === undefined ? {} : { machine: options.machine }),
        ...(options.heartbeats === undefined ? {} : { heartbeats: options.heartbeats }),
        unreleased,
      });
    } catch (error) {
      // A machine cut off from a shared store keeps supervising its members and picks up
      // where it was once the store answers again (its members' heartbeats resume then).
      if (!isTeamkitError(error, 'STORE_UNAVAILABLE')) throw error;
      (options.log ?? ((line: string) => process.stderr.write(`${line}\n`)))(
        `supervisor: the store did not answer; trying again: ${errorMessage(error)}`,
      );
    }
    await options.onPass?.();
    if (outcome !== undefined) return outcome;
    // Ends early (rejecting with an AbortError) when the signal aborts; the loop then returns.
    await delay(intervalMs, undefined, { signal: options.signal }).catch(() => {});
  }
}

/** The seams of one supervisor pass. */
export interface SupervisePassOptions {
  lock?: LockOptions;
  log?: (line: string) => void;
  /**
   * This machine's id when the run's state is shared by several machines: members whose
   * process runs here are checked by pid and get a heartbeat each pass; members of other
   * machines are judged by their heartbeat (`heartbeats`), and their idle marks are left to
   * their own machine's supervisor.
   */
  machine?: string;
  heartbeats?: HeartbeatJudge;
  /**
   * Members marked errored whose tasks a pass could not release: each later pass tries
   * again until it works, so a task is never left held by a dead member. The loop of
   * {@link superviseRun} keeps one set across its passes.
   */
  unreleased?: Set<string>;
}

async function setStatusIf(
  run: RunHandle,
  member: string,
  from: MemberStatus,
  to: MemberStatus,
): Promise<void> {
  try {
    await run.state.update((draft) => {
      const target = draft.members.find((candidate) => candidate.name === member);
      if (target?.status === from) {
        target.status = to;
        target.lastSeenAt = Date.now();
      }
      return draft;
    });
  } catch (error) {
    // A member that wakes while the bound is full keeps working; it stays idle on paper.
    if (!isTeamkitError(error, 'BOUND_EXCEEDED')) throw error;
  }
}

/** One pass of the supervisor; returns an outcome when supervision should end. */
export async function superviseOnce(
  runtime: TeamRuntime,
  runId: string,
  pass: SupervisePassOptions = {},
): Promise<SuperviseOutcome | undefined> {
  const { home, store } = runtime;
  const { lock } = pass;
  const log = pass.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const run = openRun({
    home,
    runId,
    store,
    actor: 'supervisor',
    ...(lock === undefined ? {} : { lock }),
  });
  const state = await run.state.read();
  if (!WRITABLE_RUN_STATUSES.includes(state.status)) return 'stopped';
  const lead = findLead(state);
  let leadGone = lead?.sessionId === undefined;
  const releaseTasksOf = (leadName: string, member: string) =>
    run.tasks.releaseTasksOf(leadName, member);
  if (lead !== undefined) {
    for (const member of [...(pass.unreleased ?? [])]) {
      try {
        const released = await releaseTasksOf(lead.name, member);
        pass.unreleased?.delete(member);
        log(
          `supervisor: released the tasks of ${member} on a later pass (${released.map((task) => task.id).join(', ') || 'none left'})`,
        );
      } catch {
        // Still failing: the first failure was logged; the next pass tries again.
      }
    }
  }
  for (const member of state.members) {
    if (member.sessionId === undefined || member.sessionId === state.leadSessionId) continue;
    if (!WORKING.includes(member.status)) continue;
    const { machine, heartbeats } = pass;
    const remote =
      machine !== undefined &&
      heartbeats !== undefined &&
      member.machine !== undefined &&
      member.machine !== machine;
    const alive = remote
      ? await heartbeats.isAlive(runId, member.name, member.sessionId)
      : await runtime.host.isAlive(member.sessionId);
    if (alive && machine !== undefined && !remote) {
      try {
        await beatMember(runId, member.name, { machine, sessionId: member.sessionId, store });
      } catch (error) {
        log(`supervisor: could not write the heartbeat of ${member.name}: ${errorMessage(error)}`);
      }
    }
    if (!alive) {
      if (member.isLead) {
        leadGone = true;
        continue;
      }
      // The state read above may predate the member's last act: a member that approved its
      // shutdown and exited meanwhile is done, not dead. Judge by the state as it is now.
      const now = (await run.state.read()).members.find(
        (candidate) => candidate.name === member.name,
      );
      if (now === undefined || !WORKING.includes(now.status)) continue;
      await markErrored(
        run,
        member.name,
        log,
        remote
          ? `no heartbeat from machine ${member.machine} for longer than the stale period`
          : undefined,
      );
      if (lead !== undefined) {
        try {
          await releaseTasksOf(lead.name, member.name);
        } catch (error) {
          pass.unreleased?.add(member.name);
          log(
            `supervisor: could not release the tasks of ${member.name}: ${errorMessage(error)}${pass.unreleased === undefined ? '' : ' (trying again each pass)'}`,
          );
        }
      }
      continue;
    }
    if (member.isLead || remote) continue;
    const waiting = (await readWaitingMarker(runId, member.name, store)) !== undefined;
    if (member.status === 'running' && waiting)
      await setStatusIf(run, member.name, 'running', 'idle');
    else if (member.status === 'idle' && !waiting)
      await setStatusIf(run, member.name, 'idle', 'running');
  }
  await runtime.reconcile(runId);
  await runtime.spawnWaitingMembers(runId);
  // The completion rule: every other member done and the lead's process ended makes the
  // run `completed`, unless acceptance criteria lack evidence (then it keeps working and
  // the lead and the user are told once).
  const settled = await settleRun({
    home,
    runId,
    store,
    leadEnded: leadGone,
    actor: 'supervisor',
    ...(lock === undefined ? {} : { lock }),
  });
  if (settled.outcome === 'complete') return 'finished';
  return settled.outcome === 'not-working' ? 'stopped' : undefined;
}

async function markErrored(
  run: RunHandle,
  member: string,
  log: (line: string) => void,
  reason = 'the member process exited without an approved shutdown',
): Promise<void> {
  try {
    await run.state.transitionMember(member, 'errored', { reason });
  } catch (error) {
    // A member that meanwhile finished (terminated) cannot become errored; that is fine.
    if (isTeamkitError(error, 'INVALID_TRANSITION')) return;
    log(`supervisor: could not mark ${member} errored: ${errorMessage(error)}`);
  }
}
