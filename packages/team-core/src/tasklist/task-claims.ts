import { isTeamkitError, TeamkitError } from '../errors/index.js';
import type { Task, TaskStatus } from '../schema/index.js';
import { findMember, isActiveMember } from '../state/run-members.js';
import { assertBlockersDone } from './task-dependencies.js';
import { assertTaskIds } from './task-ids.js';
import {
  callerState,
  logTaskEvent,
  requirePresent,
  requireTask,
  type TaskListParts,
} from './task-list-parts.js';
import { assertMemberName, notLead } from './task-refusals.js';
import { assertTaskTransition } from './task-status-machine.js';

/** Statuses of work a member holds: released when it dies, reassignable by the lead. */
const OPEN_OWNED: readonly TaskStatus[] = ['pending', 'claimed', 'in_progress', 'blocked'];

function alreadyClaimed(task: Task): TeamkitError {
  return new TeamkitError(
    'ALREADY_CLAIMED',
    `Task ${task.id} is already ${task.status} by ${task.owner ?? 'someone'}.`,
    { details: { taskId: task.id, owner: task.owner ?? null, status: task.status } },
  );
}

const isHeld = (task: Task) => task.status === 'claimed' || task.status === 'in_progress';

/** Compare-and-set claim: of any number of concurrent claimers, exactly one wins. */
export async function claimTask(parts: TaskListParts, caller: string, id: string): Promise<Task> {
  const { member } = await callerState(parts, caller);
  assertTaskIds([id]);
  if (!isActiveMember(member)) {
    throw new TeamkitError(
      'PERMISSION_DENIED',
      `${caller} is ${member.status} and may not claim tasks.`,
      { details: { caller, status: member.status } },
    );
  }
  // A claim that loses needs no write: task files are replaced atomically, so a read
  // that shows the task held is a moment at which the claim was truly lost. Only a claim
  // that may win decides on a fresh read inside the update.
  const seen = await requireTask(parts, id);
  if (isHeld(seen)) throw alreadyClaimed(seen);
  const claimed = await parts.tasks.updateTask(id, {
    async next(current) {
      const task = requirePresent(current, id);
      if (isHeld(task)) throw alreadyClaimed(task);
      assertTaskTransition(id, task.status, 'claimed');
      if (task.owner !== undefined && task.owner !== caller) {
        throw new TeamkitError(
          'ALREADY_CLAIMED',
          `Task ${id} is held for ${task.owner} (changes requested or blocked while owned).`,
          { details: { taskId: id, owner: task.owner, status: task.status } },
        );
      }
      await assertBlockersDone(parts, task, 'claimed');
      const now = parts.run.now();
      return { ...task, status: 'claimed', owner: caller, claimedAt: now, updatedAt: now };
    },
    written: (next) =>
      logTaskEvent(parts, caller, 'task.claimed', [id], {
        owner: caller,
        sequence: next.sequence,
      }),
  });
  return requirePresent(claimed, id);
}

/** Lead only: gives an open task to another active member (a pending one becomes claimed). */
export async function reassignTask(
  parts: TaskListParts,
  caller: string,
  id: string,
  newOwner: string,
): Promise<Task> {
  const { state, member } = await callerState(parts, caller);
  assertTaskIds([id]);
  if (!member.isLead) throw notLead(caller, 'reassign a task', id);
  const target = findMember(state, newOwner);
  if (!isActiveMember(target)) {
    throw new TeamkitError(
      'PERMISSION_DENIED',
      `${newOwner} is ${target.status} and cannot own tasks.`,
      { details: { member: newOwner, status: target.status } },
    );
  }
  const reassigned = await parts.tasks.updateTask(id, {
    async next(current) {
      const task = requirePresent(current, id);
      if (!OPEN_OWNED.includes(task.status)) {
        throw new TeamkitError(
          'INVALID_TRANSITION',
          `Task ${id} is ${task.status}; only ${OPEN_OWNED.join(', ')} tasks can be reassigned.`,
          { details: { taskId: id, from: task.status, allowed: [...OPEN_OWNED] } },
        );
      }
      const now = parts.run.now();
      let next: Task = { ...task, owner: newOwner, updatedAt: now };
      if (task.status === 'pending') {
        await assertBlockersDone(parts, task, 'claimed');
        next = { ...next, status: 'claimed', claimedAt: now };
      }
      return next;
    },
    written: (next, previous) =>
      logTaskEvent(parts, caller, 'task.reassigned', [id], {
        from: previous?.owner ?? null,
        to: newOwner,
        sequence: next.sequence,
      }),
  });
  return requirePresent(reassigned, id);
}

/** A task unreadable where it is stored (it stays as it is, and listings report it). */
function isDocumentProblem(error: unknown): boolean {
  return isTeamkitError(error, 'CORRUPT_DOCUMENT') || isTeamkitError(error, 'UNSUPPORTED_VERSION');
}

/** Returns task `id` to pending and unowned if `member` holds it open; else writes nothing. */
function releaseOne(parts: TaskListParts, id: string, member: string): Promise<Task | undefined> {
  return parts.tasks.updateTask(id, {
    next(task) {
      if (task === undefined || task.owner !== member || !OPEN_OWNED.includes(task.status)) {
        return undefined;
      }
      const moved: Task = { ...task, updatedAt: parts.run.now() };
      delete moved.owner;
      delete moved.claimedAt;
      if (isHeld(task)) {
        assertTaskTransition(task.id, task.status, 'pending');
        moved.status = 'pending';
      }
      return moved;
    },
  });
}

/** Lead or the member itself: the member's open tasks return to pending, unowned. */
export async function releaseTasksOf(
  parts: TaskListParts,
  caller: string,
  member: string,
): Promise<Task[]> {
  const { member: actor } = await callerState(parts, caller);
  assertMemberName(member);
  if (!actor.isLead && caller !== member) throw notLead(caller, `release ${member}'s tasks`, '*');
  const { byId, ids } = await parts.tasks.readAllTasks();
  const released: Task[] = [];
  for (const id of ids) {
    const listed = byId.get(id);
    if (listed !== undefined && (listed.owner !== member || !OPEN_OWNED.includes(listed.status))) {
      continue;
    }
    // A task the listing could not read (or found absent) is read again on its own: a
    // dead member's task skipped here would stay held by it for good.
    const next = await releaseOne(parts, id, member).catch((error: unknown) => {
      if (listed === undefined && isDocumentProblem(error)) return undefined;
      throw error;
    });
    if (next !== undefined) released.push(next);
  }
  if (released.length > 0) {
    await logTaskEvent(
      parts,
      caller,
      'task.released',
      released.map((task) => task.id),
      { member, sequences: Object.fromEntries(released.map((task) => [task.id, task.sequence])) },
    );
  }
  return released;
}
