import type { RunContext } from '../run-context/index.js';
import type { RunMember, RuntimeState, Task } from '../schema/index.js';
import { findParticipant } from '../state/run-members.js';
import type { GitRunner } from '../worktree/git-runner.js';
import { assertTaskIds } from './task-ids.js';
import { unknownTask } from './task-refusals.js';
import type { TaskStorage } from './task-storage.js';

/** What every task-list operation works with: the run, its task storage and git. */
export interface TaskListParts {
  readonly run: RunContext;
  readonly tasks: TaskStorage;
  /** Reads an owner's branch head for the task's recorded work. */
  readonly git: GitRunner;
}

/**
 * The writable run state and the caller: a member, or the user with the lead's rights
 * (`RUN_NOT_ACTIVE`, `UNKNOWN_MEMBER`).
 */
export async function callerState(
  parts: TaskListParts,
  caller: string,
): Promise<{ state: RuntimeState; member: RunMember }> {
  const state = await parts.run.writableState();
  return { state, member: findParticipant(state, caller) };
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
