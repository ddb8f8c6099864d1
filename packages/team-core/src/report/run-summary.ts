import { TASK_STATUSES, type TaskStatus } from '../schema/task.js';
import { DONE_TASK_STATUSES } from '../tasklist/task-status-machine.js';

/** The task figures every view of a run shows: `team run status`, the report, the UI. */
export interface RunTaskSummary {
  /** How many tasks are in each status; every status is present, zero or not. */
  tasksByStatus: Record<TaskStatus, number>;
  /** Tasks done (completed or approved) out of all tasks that are not deleted or cancelled. */
  progress: { done: number; total: number };
}

const NOT_COUNTED: readonly TaskStatus[] = ['deleted', 'cancelled'];

/**
 * Counts a run's tasks by status and its progress, the one computation behind the
 * figures of `team run status`, `team run report` and the web UI, so they never disagree.
 */
export function summarizeRunTasks(tasks: readonly { status: TaskStatus }[]): RunTaskSummary {
  const tasksByStatus = Object.fromEntries(TASK_STATUSES.map((status) => [status, 0])) as Record<
    TaskStatus,
    number
  >;
  let done = 0;
  let total = 0;
  for (const task of tasks) {
    tasksByStatus[task.status] += 1;
    if (NOT_COUNTED.includes(task.status)) continue;
    total += 1;
    if (DONE_TASK_STATUSES.includes(task.status)) done += 1;
  }
  return { tasksByStatus, progress: { done, total } };
}
