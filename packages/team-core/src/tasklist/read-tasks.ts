import type { Task, TaskStatus } from '../schema/index.js';
import { openBlockers } from './task-dependencies.js';
import type { TaskListParts } from './task-list-parts.js';
import { assertMemberName } from './task-refusals.js';
import type { TaskListing } from './task-storage.js';

/** Filters for {@link listTasks}. */
export interface TaskFilter {
  status?: TaskStatus | readonly TaskStatus[];
  /** Exact owner name (`writer` never matches `writer-2`). */
  owner?: string;
  /** Include tombstones of deleted tasks. Default false. */
  includeDeleted?: boolean;
}

/** Lists tasks by numeric id; corrupt files are reported, not replaced. */
export async function listTasks(
  parts: TaskListParts,
  filter: TaskFilter = {},
): Promise<TaskListing> {
  if (filter.owner !== undefined) assertMemberName(filter.owner);
  const { listing } = await parts.tasks.readAllTasks();
  const statuses =
    filter.status === undefined
      ? undefined
      : typeof filter.status === 'string'
        ? [filter.status]
        : filter.status;
  listing.tasks = listing.tasks.filter(
    (task) =>
      (filter.includeDeleted === true || task.status !== 'deleted') &&
      (statuses === undefined || statuses.includes(task.status)) &&
      (filter.owner === undefined || task.owner === filter.owner),
  );
  return listing;
}

/** Pending, unowned tasks whose blockers are all completed or approved. */
export async function readyTasks(parts: TaskListParts): Promise<Task[]> {
  const { byId, listing } = await parts.tasks.readAllTasks();
  return listing.tasks.filter(
    (task) =>
      task.status === 'pending' &&
      task.owner === undefined &&
      openBlockers(task, byId).length === 0,
  );
}
