import { TeamkitError } from '../errors/index.js';
import type { MemberStatus, RunStatus } from '../schema/runtime-state.js';

/**
 * The run status machine: every status a run may move to from each status.
 * `deleted` and `failed` are terminal. `completed` (the work is over, its results kept)
 * accepts only `deleting`, as does `orphaned` (the lead is gone), so either can still be
 * cleaned up on purpose.
 */
export const RUN_TRANSITIONS: Readonly<Record<RunStatus, readonly RunStatus[]>> = {
  creating: ['active', 'failed', 'orphaned'],
  active: ['shutdown_requested', 'completed', 'deleting', 'orphaned'],
  shutdown_requested: ['deleting', 'active', 'completed', 'orphaned'],
  completed: ['deleting'],
  deleting: ['deleted', 'orphaned'],
  orphaned: ['deleting'],
  deleted: [],
  failed: [],
};

/**
 * The member status machine: `pending → running → idle ⇄ running`, any live status
 * `→ errored` or `→ shutdown_approved → terminated`; an errored member may only be
 * marked `terminated`. `terminated` is terminal.
 */
export const MEMBER_TRANSITIONS: Readonly<Record<MemberStatus, readonly MemberStatus[]>> = {
  pending: ['running', 'errored', 'shutdown_approved'],
  running: ['idle', 'errored', 'shutdown_approved'],
  idle: ['running', 'errored', 'shutdown_approved'],
  shutdown_approved: ['terminated', 'errored'],
  errored: ['terminated'],
  terminated: [],
};

/** Run statuses that never change again; writes to such runs are refused. */
export const TERMINAL_RUN_STATUSES: readonly RunStatus[] = ['deleted', 'failed'];

/**
 * Run statuses whose work is over: no member works any more, mail and tasks take no
 * writes. A `completed` run keeps its results (worktrees, branches, mail) until stopped.
 */
export const FINISHED_RUN_STATUSES: readonly RunStatus[] = [
  'completed',
  'deleted',
  'failed',
  'orphaned',
];

/** Run statuses in which a run does its work: it accepts messages, turns and spawns. */
export const WORKING_RUN_STATUSES: readonly RunStatus[] = ['active', 'shutdown_requested'];

/** Run statuses in which members may join or start: a run that is shutting down starts no one. */
export const SPAWNING_RUN_STATUSES: readonly RunStatus[] = ['creating', 'active'];

/**
 * Run statuses in which the mailbox and the task list accept writes and members may be
 * started: the working statuses plus `creating` (the run is being set up).
 */
export const WRITABLE_RUN_STATUSES: readonly RunStatus[] = ['creating', ...WORKING_RUN_STATUSES];

/** True when the run status machine allows `from → to` (staying put is not a move). */
export function canTransitionRun(from: RunStatus, to: RunStatus): boolean {
  return RUN_TRANSITIONS[from].includes(to);
}

/** True when the member status machine allows `from → to`. */
export function canTransitionMember(from: MemberStatus, to: MemberStatus): boolean {
  return MEMBER_TRANSITIONS[from].includes(to);
}

function describeAllowed(from: string, allowed: readonly string[]): string {
  return allowed.length === 0
    ? `"${from}" is terminal`
    : `from "${from}" it may move to ${allowed.map((status) => `"${status}"`).join(', ')}`;
}

/** Throws `INVALID_TRANSITION` unless the run may move `from → to`. */
export function assertRunTransition(from: RunStatus, to: RunStatus, runId?: string): void {
  if (!canTransitionRun(from, to)) {
    const allowed = RUN_TRANSITIONS[from];
    throw new TeamkitError(
      'INVALID_TRANSITION',
      `${runId === undefined ? 'The run' : `Run ${runId}`} cannot move from "${from}" to "${to}"; ${describeAllowed(from, allowed)}.`,
      { details: { runId, from, to, allowed } },
    );
  }
}

/** Throws `INVALID_TRANSITION` unless the member may move `from → to`. */
export function assertMemberTransition(
  from: MemberStatus,
  to: MemberStatus,
  member?: string,
): void {
  if (!canTransitionMember(from, to)) {
    const allowed = MEMBER_TRANSITIONS[from];
    throw new TeamkitError(
      'INVALID_TRANSITION',
      `${member === undefined ? 'The member' : `Member ${member}`} cannot move from "${from}" to "${to}"; ${describeAllowed(from, allowed)}.`,
      { details: { member, from, to, allowed } },
    );
  }
}
