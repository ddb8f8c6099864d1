import type { RunContext } from '../run-context/index.js';
import type { RunMember, RuntimeState, Task } from '../schema/index.js';
import { findMember } from '../state/run-members.js';
import { assertTaskIds } from './task-ids.js';
import { unknownTask } from './task-refusals.js';
import type { TaskStorage } from './task-storage.js';

/** What every task-list operation works with: the run and its task storage. */
export interface TaskListParts {
  readonly run: RunContext;
  readonly tasks: TaskStorage;
}

/** The writable run state and the calling member (`RUN_NOT_ACTIVE`, `UNKNOWN_MEMBER`). */
export async function callerState(
  parts: TaskListParts,
  caller: string,
): Promise<{ state: RuntimeState; member: RunMember }> {
  const state = await parts.run.writableState();
  return { state, member: findMember(state, caller) };
}

/** Task `id`, refusing a bad id (`INVALID_INPUT`) and an absent or deleted task (`UNKNOWN_TASK`). */
export async function requireTask(parts: TaskListParts, id: string): Promise<Task> {
  assertTaskIds([id]);
  return requirePresent(await parts.tasks.readTask(id), id);
}

/** Refuses an absent or deleted task (`UNKNOWN_TASK`). */
export function requirePresent(task: Task | undefined, id: string): Task {
  if (task === undefined || task.status === 'deleted') throw unknownTask(id);
  return task;
}

/** Logs a task-list event; see {@link RunContext.logEvent}. */
export function logTaskEvent(
  parts: TaskListParts,
  actor: string,
  type: string,
  ids: string[],
  data?: object,
): Promise<void> {
  return parts.run.logEvent(actor, type, ids, data === undefined ? undefined : { ...data });
}
