import { TeamkitError } from '../errors/index.js';
import type { TaskStatus } from '../schema/index.js';

/**
 * Every allowed status move of a task, printable by the CLI and the docs. Terminal
 * statuses (`approved`, `cancelled`) only move to `deleted`; `deleted` never moves.
 */
export const TASK_STATUS_TRANSITIONS: Readonly<Record<TaskStatus, readonly TaskStatus[]>> = {
  pending: ['claimed', 'blocked', 'cancelled', 'deleted'],
  claimed: ['in_progress', 'pending', 'blocked', 'cancelled', 'deleted'],
  in_progress: ['completed', 'pending', 'blocked', 'cancelled', 'deleted'],
  completed: ['in_review', 'approved', 'cancelled', 'deleted'],
  in_review: ['approved', 'pending', 'cancelled', 'deleted'],
  approved: ['deleted'],
  blocked: ['pending', 'cancelled', 'deleted'],
  cancelled: ['deleted'],
  deleted: [],
};

/** Statuses that satisfy a dependency: the blocker's work is done. */
export const DONE_TASK_STATUSES: readonly TaskStatus[] = ['completed', 'approved'];

/** True when the status machine allows `from → to`. */
export function canTaskTransition(from: TaskStatus, to: TaskStatus): boolean {
  return TASK_STATUS_TRANSITIONS[from].includes(to);
}

/** Refuses a move the status machine does not allow (`INVALID_TRANSITION`, naming the allowed moves). */
export function assertTaskTransition(taskId: string, from: TaskStatus, to: TaskStatus): void {
  if (canTaskTransition(from, to)) return;
  const allowed = TASK_STATUS_TRANSITIONS[from];
  throw new TeamkitError(
    'INVALID_TRANSITION',
    `Task ${taskId} cannot move ${from} → ${to}; from ${from} it may move to: ${allowed.length > 0 ? allowed.join(', ') : 'nothing'}.`,
    { details: { taskId, from, to, allowed: [...allowed] } },
  );
}
