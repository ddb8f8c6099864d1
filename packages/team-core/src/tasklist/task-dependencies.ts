import { TeamkitError } from '../errors/index.js';
import type { Task, TaskStatus } from '../schema/index.js';
import { findDependencyPath } from './dependency-graph.js';
import { assertTaskIds } from './task-ids.js';
import {
  callerState,
  logTaskEvent,
  requirePresent,
  requireTask,
  type TaskListParts,
} from './task-list-parts.js';
import { notOwner } from './task-refusals.js';
import { DONE_TASK_STATUSES } from './task-status-machine.js';

// Edges live on both tasks (`blocks` on the blocker, `blockedBy` on the blocked task).
// Every edit of edges runs under the list lock, so edges and cycle checks never race;
// each task is then changed on its own, blocker side first.

/** The blockers of `task` that are not done (absent blockers count as open). */
export function openBlockers(task: Task, byId: ReadonlyMap<string, Task | undefined>): string[] {
  return task.blockedBy.filter((id) => {
    const blocker = byId.get(id);
    return blocker === undefined || !DONE_TASK_STATUSES.includes(blocker.status);
  });
}

/** Refuses (`BLOCKED_BY`, listing them) while `task` has open blockers. */
export async function assertBlockersDone(
  parts: TaskListParts,
  task: Task,
  to: TaskStatus,
): Promise<void> {
  const byId = new Map<string, Task | undefined>();
  for (const id of task.blockedBy) byId.set(id, await parts.tasks.readTask(id));
  const open = openBlockers(task, byId);
  if (open.length > 0) {
    throw new TeamkitError(
      'BLOCKED_BY',
      `Task ${task.id} cannot become ${to}: it is blocked by open task(s) ${open.join(', ')}.`,
      { details: { taskId: task.id, blockedBy: open } },
    );
  }
}

/** Refuses (`DEPENDENCY_CYCLE`) edges of a new task `id` that would close a cycle. */
export function assertNoCycleThroughNewTask(
  id: string,
  blockedBy: readonly string[],
  blocks: readonly string[],
  byId: ReadonlyMap<string, Task>,
): void {
  for (const blocker of blockedBy) {
    const cycle = blocks.includes(blocker)
      ? [blocker]
      : blocks
          .map((blocked) =>
            findDependencyPath((node) => byId.get(node)?.blocks ?? [], blocked, blocker),
          )
          .find((found) => found !== undefined);
    if (cycle !== undefined) {
      const loop = [id, ...cycle, id];
      throw new TeamkitError(
        'DEPENDENCY_CYCLE',
        `Task ${id} would be in a dependency cycle: ${loop.join(' → ')}.`,
        { details: { cycle: loop } },
      );
    }
  }
}

/** Writes the far ends of a new task's edges; call holding the list lock. */
export async function linkNewTask(
  parts: TaskListParts,
  id: string,
  blockedBy: readonly string[],
  blocks: readonly string[],
  now: number,
): Promise<void> {
  for (const partnerId of [...new Set([...blockedBy, ...blocks])]) {
    await parts.tasks.updateTask(partnerId, {
      next: (current) => {
        const partner = requirePresent(current, partnerId);
        return {
          ...partner,
          blocks: blockedBy.includes(partnerId)
            ? [...new Set([...partner.blocks, id])]
            : partner.blocks,
          blockedBy: blocks.includes(partnerId)
            ? [...new Set([...partner.blockedBy, id])]
            : partner.blockedBy,
          updatedAt: now,
        };
      },
    });
  }
}

/** Removes task `id` from the edges of `partners`; call holding the list lock. */
export async function unlinkTask(
  parts: TaskListParts,
  id: string,
  partners: readonly string[],
  now: number,
): Promise<void> {
  for (const partnerId of partners) {
    await parts.tasks.updateTask(partnerId, {
      next: (partner) =>
        partner === undefined
          ? undefined
          : {
              ...partner,
              blocks: partner.blocks.filter((x) => x !== id),
              blockedBy: partner.blockedBy.filter((x) => x !== id),
              updatedAt: now,
            },
    });
  }
}

/** Sets or removes the edge `blocker → blocked` on both tasks. */
async function writeEdge(
  parts: TaskListParts,
  blocker: string,
  blocked: string,
  present: boolean,
): Promise<void> {
  const now = parts.run.now();
  const edit = (ids: readonly string[], id: string) =>
    present ? [...new Set([...ids, id])] : ids.filter((x) => x !== id);
  await parts.tasks.updateTask(blocker, {
    next: (current) => {
      const from = requirePresent(current, blocker);
      return { ...from, blocks: edit(from.blocks, blocked), updatedAt: now };
    },
  });
  await parts.tasks.updateTask(blocked, {
    next: (current) => {
      const to = requirePresent(current, blocked);
      return { ...to, blockedBy: edit(to.blockedBy, blocker), updatedAt: now };
    },
  });
}

/** Owner of `blocked` or lead: `blocker` must be done before `blocked`; cycles are refused. */
export async function addDependency(
  parts: TaskListParts,
  caller: string,
  blocker: string,
  blocked: string,
): Promise<void> {
  const { member } = await callerState(parts, caller);
  assertTaskIds([blocker, blocked]);
  await parts.tasks.withListLock(async () => {
    const blockedTask = await requireTask(parts, blocked);
    await requireTask(parts, blocker);
    if (blockedTask.owner !== caller && !member.isLead) {
      throw notOwner(blockedTask, caller, 'add a dependency to');
    }
    const { byId } = await parts.tasks.readAllTasks();
    const path = findDependencyPath((node) => byId.get(node)?.blocks ?? [], blocked, blocker);
    if (path !== undefined) {
      const loop = [blocker, ...path];
      throw new TeamkitError(
        'DEPENDENCY_CYCLE',
        `Task ${blocker} blocking ${blocked} would close a cycle: ${loop.join(' → ')}.`,
        { details: { cycle: loop } },
      );
    }
    await writeEdge(parts, blocker, blocked, true);
    await logTaskEvent(parts, caller, 'task.dependency_added', [blocker, blocked]);
  });
}

/** Owner of `blocked` or lead: removes the edge; a missing edge is fine. */
export async function removeDependency(
  parts: TaskListParts,
  caller: string,
  blocker: string,
  blocked: string,
): Promise<void> {
  const { member } = await callerState(parts, caller);
  assertTaskIds([blocker, blocked]);
  await parts.tasks.withListLock(async () => {
    const blockedTask = await requireTask(parts, blocked);
    await requireTask(parts, blocker);
    if (blockedTask.owner !== caller && !member.isLead) {
      throw notOwner(blockedTask, caller, 'remove a dependency from');
    }
    await writeEdge(parts, blocker, blocked, false);
    await logTaskEvent(parts, caller, 'task.dependency_removed', [blocker, blocked]);
  });
}
