import { createRunContext, type RunContext, type RunContextOptions } from '../run-context/index.js';
import type { Task, TaskStatus } from '../schema/index.js';
import { parseInput } from '../state/parse-input.js';
import { createGitRunner, type GitRunner } from '../worktree/git-runner.js';
import { type CreateTaskInput, createTask } from './create-task.js';
import { listTasks, readyTasks, type TaskFilter } from './read-tasks.js';
import { claimTask, reassignTask, releaseTasksOf } from './task-claims.js';
import { addDependency, removeDependency } from './task-dependencies.js';
import { type TaskDetailsPatch, updateTaskDetails } from './task-details.js';
import {
  CreateTaskInputSchema,
  NameArgument,
  ReasonArgument,
  StatusChangeOptionsSchema,
  TaskDetailsPatchSchema,
  TaskFilterSchema,
  TaskStatusArgument,
} from './task-list-inputs.js';
import { requireTask, type TaskListParts } from './task-list-parts.js';
import { deleteTask, moveTask, type StatusChangeOptions } from './task-moves.js';
import { createTaskStorage, type TaskListing } from './task-storage.js';

/** Options for {@link createTaskList}: where the run lives and the injectable seams. */
export interface TaskListOptions extends RunContextOptions {
  /** The git seam that reads an owner's branch head when its task is completed or reviewed. */
  git?: GitRunner;
}

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
  return taskListOfRun(createRunContext(options), options.git);
}

/** @internal The task list over an opened run (the run handle's `tasks`). */
export function taskListOfRun(run: RunContext, git?: GitRunner): TaskList {
  const parts: TaskListParts = {
    run,
    tasks: createTaskStorage(run),
    git: git ?? createGitRunner(),
  };
  // Each method checks the shape of its arguments first: callers may be agents' tools.
  const names = (...values: unknown[]) => {
    for (const value of values) parseInput(NameArgument, value, 'a name or task id');
  };
  return {
    async createTask(caller, input) {
      names(caller);
      return createTask(parts, caller, parseInput(CreateTaskInputSchema, input, 'the task'));
    },
    async getTask(id) {
      names(id);
      return requireTask(parts, id);
    },
    async listTasks(filter) {
      return listTasks(parts, parseInput(TaskFilterSchema, filter, 'the task filter'));
    },
    readyTasks: () => readyTasks(parts),
    async claimTask(caller, id) {
      names(caller, id);
      return claimTask(parts, caller, id);
    },
    async setTaskStatus(caller, id, to, statusOptions) {
      names(caller, id);
      const status = parseInput(TaskStatusArgument, to, 'the task status');
      const checked =
        parseInput(StatusChangeOptionsSchema, statusOptions, 'the status change') ?? {};
      if (status === 'claimed') return claimTask(parts, caller, id);
      if (status === 'deleted') return deleteTask(parts, caller, id, checked.reason);
      return moveTask(parts, caller, id, status, checked);
    },
    async reassignTask(caller, id, newOwner) {
      names(caller, id, newOwner);
      return reassignTask(parts, caller, id, newOwner);
    },
    async updateTaskDetails(caller, id, patch) {
      names(caller, id);
      const checked = parseInput(TaskDetailsPatchSchema, patch, 'the task details');
      return updateTaskDetails(parts, caller, id, checked);
    },
    async addDependency(caller, blocker, blocked) {
      names(caller, blocker, blocked);
      return addDependency(parts, caller, blocker, blocked);
    },
    async removeDependency(caller, blocker, blocked) {
      names(caller, blocker, blocked);
      return removeDependency(parts, caller, blocker, blocked);
    },
    async deleteTask(caller, id, reason) {
      names(caller, id);
      const checked = parseInput(ReasonArgument.optional(), reason, 'the reason');
      return deleteTask(parts, caller, id, checked);
    },
    async releaseTasksOf(caller, member) {
      names(caller, member);
      return releaseTasksOf(parts, caller, member);
    },
  };
}
