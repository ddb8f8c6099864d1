import { createRunContext, type RunContextOptions } from '../run-context/index.js';
import type { Task, TaskStatus } from '../schema/index.js';
import { type CreateTaskInput, createTask } from './create-task.js';
import { listTasks, readyTasks, type TaskFilter } from './read-tasks.js';
import { claimTask, reassignTask, releaseTasksOf } from './task-claims.js';
import { addDependency, removeDependency } from './task-dependencies.js';
import { type TaskDetailsPatch, updateTaskDetails } from './task-details.js';
import { requireTask, type TaskListParts } from './task-list-parts.js';
import { deleteTask, moveTask, type StatusChangeOptions } from './task-moves.js';
import { createTaskStorage, type TaskListing } from './task-storage.js';

/** Options for {@link createTaskList}: where the run lives and the injectable seams. */
export type TaskListOptions = RunContextOptions;

/**
 * One run's task list. `caller` is always the authenticated member the host passes
 * in, never a name an agent typed into a tool argument.
 */
export interface TaskList {
  /** Creates a task with the next never-used id; edges are made symmetric. */
  createTask(caller: string, input: CreateTaskInput): Promise<Task>;
  /** Reads one task (`UNKNOWN_TASK` when absent). */
  getTask(id: string): Promise<Task>;
  /** Lists tasks by numeric id; corrupt files are reported, not replaced. */
  listTasks(filter?: TaskFilter): Promise<TaskListing>;
  /** Pending, unowned tasks whose blockers are all completed or approved. */
  readyTasks(): Promise<Task[]>;
  /** Compare-and-set claim under the task's lock; exactly one concurrent claimer wins. */
  claimTask(caller: string, id: string): Promise<Task>;
  /** Moves a task through the status machine (see {@link TASK_STATUS_TRANSITIONS}). */
  setTaskStatus(
    caller: string,
    id: string,
    to: TaskStatus,
    options?: StatusChangeOptions,
  ): Promise<Task>;
  /** Lead only: gives a task to another active member. */
  reassignTask(caller: string, id: string, newOwner: string): Promise<Task>;
  /** Owner or lead: edits subject, description, activeForm or metadata. */
  updateTaskDetails(caller: string, id: string, patch: TaskDetailsPatch): Promise<Task>;
  /** Owner of `blocked` or lead: `blocker` must be done before `blocked`. */
  addDependency(caller: string, blocker: string, blocked: string): Promise<void>;
  /** Owner of `blocked` or lead: removes the edge; a missing edge is fine. */
  removeDependency(caller: string, blocker: string, blocked: string): Promise<void>;
  /** Owner or lead: marks the task deleted and removes it from every other task's edges. */
  deleteTask(caller: string, id: string, reason?: string): Promise<Task>;
  /** Lead or the member itself: the member's open tasks return to pending, unowned. */
  releaseTasksOf(caller: string, member: string): Promise<Task[]>;
}

/**
 * Creates the task list of one run (`runtime/<runId>/tasks/`). Single-task changes
 * read, change and write one task with no other writer in between; creation, deletion
 * and dependency edits hold the list lock while they change each task they touch.
 */
export function createTaskList(options: TaskListOptions): TaskList {
  const run = createRunContext(options);
  const parts: TaskListParts = { run, tasks: createTaskStorage(run) };
  return {
    createTask: (caller, input) => createTask(parts, caller, input),
    getTask: (id) => requireTask(parts, id),
    listTasks: (filter) => listTasks(parts, filter),
    readyTasks: () => readyTasks(parts),
    claimTask: (caller, id) => claimTask(parts, caller, id),
    setTaskStatus(caller, id, to, statusOptions = {}) {
      if (to === 'claimed') return claimTask(parts, caller, id);
      if (to === 'deleted') return deleteTask(parts, caller, id, statusOptions.reason);
      return moveTask(parts, caller, id, to, statusOptions);
    },
    reassignTask: (caller, id, newOwner) => reassignTask(parts, caller, id, newOwner),
    updateTaskDetails: (caller, id, patch) => updateTaskDetails(parts, caller, id, patch),
    addDependency: (caller, blocker, blocked) => addDependency(parts, caller, blocker, blocked),
    removeDependency: (caller, blocker, blocked) =>
      removeDependency(parts, caller, blocker, blocked),
    deleteTask: (caller, id, reason) => deleteTask(parts, caller, id, reason),
    releaseTasksOf: (caller, member) => releaseTasksOf(parts, caller, member),
  };
}
