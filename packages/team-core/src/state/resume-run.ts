import { errorMessage, isTeamkitError, TeamkitError } from '../errors/index.js';
import type { RunMember, RuntimeState } from '../schema/runtime-state.js';
import { listRuns, readRunState, transitionRun, updateRunState } from './run-state-store.js';
import { resolveStateOptions, type StateOptions } from './state-options.js';
import {
  canTransitionMember,
  canTransitionRun,
  WORKING_RUN_STATUSES,
  WRITABLE_RUN_STATUSES,
} from './status-machines.js';

/**
 * The one thing resume needs from a host: whether a member's session still lives.
 * The full host contract (`TeamHostV1`) has `isAlive` with this signature.
 */
export interface LivenessProbe {
  isAlive(sessionId: string): Promise<boolean>;
}

/**
 * What resume asks other modules to do for a dead member or a failed run. Each returns
 * the ids it acted on (task ids, message ids, removed paths), recorded in the report.
 * They must be idempotent: resume may run them again after a crash.
 */
export interface RecoveryActions {
  /** Puts the member's open tasks back to pending; returns their ids. */
  releaseTasksOf(runId: string, member: string): Promise<string[]>;
  /** Returns the member's reserved but unacknowledged messages to its inbox; returns their ids. */
  reclaimReservations(runId: string, member: string): Promise<string[]>;
  /** Undoes what a run stuck in `creating` made (worktrees, panes, sessions); returns what it removed. */
  rollbackRun?(state: RuntimeState): Promise<string[]>;
  /** Finishes a deletion cut short (worktrees, panes); returns what it removed. */
  finishDeletion?(state: RuntimeState): Promise<string[]>;
}

/**
 * How a run shared by several machines judges the members of the others: their
 * processes are not this machine's to probe, so another signal (a heartbeat) says
 * whether they live.
 */
export interface OtherMachinesLiveness {
  /** This machine's id (`RunMember.machine` of the members whose processes run here). */
  machine: string;
  /** Whether a member placed on another machine still lives. */
  isAlive(runId: string, member: RunMember): Promise<boolean>;
}

/** Options for {@link resumeRun} and {@link resumeAll}. */
export interface ResumeOptions extends StateOptions {
  /**
   * In a run shared by several machines: members placed on another machine are judged
   * by this instead of `liveness` (which probes this machine's processes only).
   */
  otherMachines?: OtherMachinesLiveness;
  /** Recovery actions for dead members and failed runs; without them nothing is released. */
  recovery?: RecoveryActions;
  /** How long a run may stay `creating` before resume fails it. Default 10 minutes. */
  creatingTimeoutMs?: number;
  /**
   * The kind of host resuming (`process`, `opencode`, ...). Given, only runs that host
   * kind started are resumed: another host's sessions are not this host's to probe, and
   * would all look dead. `resumeRun` refuses another host's run with `HOST_MISMATCH`;
   * `resumeAll` passes over it and lists it in `skipped`.
   */
  hostId?: string;
}

/** What resume found and did for one member. */
export interface MemberResumeReport {
  member: string;
  /** `alive`, `dead`, `not-started` (no session yet), `unknown` (the probe failed) or `finished`. */
  liveness: 'alive' | 'dead' | 'not-started' | 'unknown' | 'finished';
  /** Task ids released back to pending. */
  releasedTasks: string[];
  /** Message ids whose reservations were reclaimed. */
  reclaimedMessages: string[];
  /** Why the probe or a recovery action failed, when one did. */
  error?: string;
}

/** What {@link resumeRun} found and did for one run. */
export interface RunResumeReport {
  runId: string;
  statusBefore: RuntimeState['status'];
  statusAfter: RuntimeState['status'];
  members: MemberResumeReport[];
  /** What a rollback or a finished deletion removed. */
  removed: string[];
  /** Failures that did not stop the resume (a probe or action that threw). */
  errors: string[];
}

/** What {@link resumeAll} did across runs. */
export interface ResumeAllReport {
  runs: RunResumeReport[];
  /** Runs whose resume failed as a whole, with the reason. */
  failed: { runId: string; error: string }[];
  /** Corrupt state files found on the way, left in place. */
  problems: { path: string; message: string }[];
  /** Runs of another kind of host, left for that host to resume. */
  skipped: { runId: string; hostId: string }[];
}

const DEFAULT_CREATING_TIMEOUT_MS = 10 * 60_000;
// A deletion cut short is finished on resume too.
const RESUMED_RUN_STATUSES: readonly RuntimeState['status'][] = [
  ...WRITABLE_RUN_STATUSES,
  'deleting',
];
const FINISHED_MEMBER = new Set<RunMember['status']>(['terminated']);

async function probe(
  runId: string,
  member: RunMember,
  liveness: LivenessProbe,
  otherMachines: OtherMachinesLiveness | undefined,
): Promise<MemberResumeReport['liveness'] | { error: string }> {
  if (FINISHED_MEMBER.has(member.status)) return 'finished';
  if (member.status === 'errored') return 'dead';
  // A member without a session was never started (or, for the lead, is the user at the
  // CLI); neither is a dead member.
  if (member.sessionId === undefined) return 'not-started';
  const elsewhere =
    otherMachines !== undefined &&
    member.machine !== undefined &&
    member.machine !== otherMachines.machine;
  try {
    const alive = elsewhere
      ? await otherMachines.isAlive(runId, member)
      : await liveness.isAlive(member.sessionId);
    return alive ? 'alive' : 'dead';
  } catch (error) {
    return { error: errorMessage(error) };
  }
}

/**
 * Brings one run back after a restart. For a working run it asks the host whether each
 * member's session lives: dead members become `errored`, their open tasks are released
 * and their reservations reclaimed (through `recovery`); if the lead is dead the run
 * becomes `orphaned`. A run stuck `creating` past the timeout is rolled back and marked
 * `failed`; a run cut short while `deleting` is finished when `recovery.finishDeletion`
 * is given. A probe that throws counts as unknown, never as dead.
 */
export async function resumeRun(
  home: string,
  runId: string,
  liveness: LivenessProbe,
  options: ResumeOptions,
): Promise<RunResumeReport> {
  const { now } = resolveStateOptions(options);
  const state = await readRunState(home, runId, options);
  if (options.hostId !== undefined && state.hostId !== options.hostId) {
    throw new TeamkitError(
      'HOST_MISMATCH',
      `Run ${runId} is hosted by ${state.hostId}, not ${options.hostId}; resume it from there (its sessions are not this host's to check).`,
      { details: { runId, hostId: state.hostId, resumingHost: options.hostId } },
    );
  }
  const report: RunResumeReport = {
    runId,
    statusBefore: state.status,
    statusAfter: state.status,
    members: [],
    removed: [],
    errors: [],
  };
  const recovery = options.recovery;

  if (state.status === 'creating') {
    const timeout = options.creatingTimeoutMs ?? DEFAULT_CREATING_TIMEOUT_MS;
    if (now() - state.createdAt <= timeout) return report;
    // Roll back first: if that crashes, the run is still `creating` and the next resume retries.
    if (recovery?.rollbackRun !== undefined) {
      try {
        report.removed.push(...(await recovery.rollbackRun(state)));
      } catch (error) {
        report.errors.push(`rollback: ${errorMessage(error)}`);
        return report;
      }
    }
    const after = await transitionRun(home, runId, 'failed', {
      ...options,
      reason: `still creating ${Math.round((now() - state.createdAt) / 1000)} s after it started; rolled back on resume`,
    });
    report.statusAfter = after.status;
    return report;
  }

  if (state.status === 'deleting') {
    if (recovery?.finishDeletion === undefined) return report;
    try {
      report.removed.push(...(await recovery.finishDeletion(state)));
    } catch (error) {
      report.errors.push(`finish deletion: ${errorMessage(error)}`);
      return report;
    }
    const after = await transitionRun(home, runId, 'deleted', {
      ...options,
      reason: 'deletion finished on resume',
    });
    report.statusAfter = after.status;
    return report;
  }

  if (!WORKING_RUN_STATUSES.includes(state.status)) return report;

  const dead: string[] = [];
  const alive: string[] = [];
  let leadDead = false;
  // Probed together: judging another machine's member may take its whole stale period.
  const results = await Promise.all(
    state.members.map((member) => probe(runId, member, liveness, options.otherMachines)),
  );
  for (const [index, member] of state.members.entries()) {
    const result = results[index] ?? 'not-started';
    const entry: MemberResumeReport = {
      member: member.name,
      liveness: typeof result === 'string' ? result : 'unknown',
      releasedTasks: [],
      reclaimedMessages: [],
    };
    if (typeof result !== 'string') {
      entry.error = result.error;
      report.errors.push(`${member.name}: liveness probe failed: ${result.error}`);
    }
    if (entry.liveness === 'alive') alive.push(member.name);
    if (entry.liveness === 'dead') {
      // Recovery runs before the state records the death, so a crash in between is
      // retried by the next resume (the actions are idempotent).
      if (recovery !== undefined) {
        try {
          entry.releasedTasks = await recovery.releaseTasksOf(runId, member.name);
          entry.reclaimedMessages = await recovery.reclaimReservations(runId, member.name);
        } catch (error) {
          entry.error = errorMessage(error);
          report.errors.push(`${member.name}: recovery failed: ${entry.error}`);
        }
      }
      if (entry.error === undefined) {
        dead.push(member.name);
        if (member.isLead) leadDead = true;
      }
    }
    report.members.push(entry);
  }

  const at = now();
  const after = await updateRunState(
    home,
    runId,
    (draft) => {
      for (const member of draft.members) {
        if (dead.includes(member.name)) {
          if (member.status === 'shutdown_approved') {
            member.status = 'terminated';
            member.statusReason = 'its session ended after an approved shutdown';
          } else if (member.status !== 'errored' && canTransitionMember(member.status, 'errored')) {
            member.status = 'errored';
            member.statusReason =
              member.machine !== undefined &&
              options.otherMachines !== undefined &&
              member.machine !== options.otherMachines.machine
                ? `machine ${member.machine} gave no sign of its session when the run resumed`
                : 'its session was gone when the run resumed';
          }
          const reclaimed = new Set(
            report.members.find((entry) => entry.member === member.name)?.reclaimedMessages,
          );
          member.pendingDeliveryIds = member.pendingDeliveryIds.filter((id) => !reclaimed.has(id));
        }
        if (alive.includes(member.name)) member.lastSeenAt = at;
      }
      if (leadDead && canTransitionRun(draft.status, 'orphaned')) {
        draft.status = 'orphaned';
        draft.statusReason = "the lead's session was gone when the run resumed";
      }
      return draft;
    },
    options,
  );
  report.statusAfter = after.status;
  return report;
}

/**
 * Resumes every run that may need it (`creating`, `active`, `shutdown_requested`,
 * `deleting`) with {@link resumeRun}. One run's failure is reported, not thrown, so
 * the others still resume. The runtime calls this on start.
 */
export async function resumeAll(
  home: string,
  liveness: LivenessProbe,
  options: ResumeOptions,
): Promise<ResumeAllReport> {
  const listing = await listRuns(home, options);
  const report: ResumeAllReport = {
    runs: [],
    failed: [],
    problems: listing.problems.map(({ path, message }) => ({ path, message })),
    skipped: [],
  };
  for (const run of listing.runs) {
    if (!RESUMED_RUN_STATUSES.includes(run.status)) continue;
    if (options.hostId !== undefined && run.hostId !== options.hostId) {
      report.skipped.push({ runId: run.runId, hostId: run.hostId });
      continue;
    }
    try {
      report.runs.push(await resumeRun(home, run.runId, liveness, options));
    } catch (error) {
      if (!isTeamkitError(error) && !(error instanceof Error)) throw error;
      report.failed.push({ runId: run.runId, error: errorMessage(error) });
    }
  }
  return report;
}
