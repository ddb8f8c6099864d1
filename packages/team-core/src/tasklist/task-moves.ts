import { TeamkitError } from '../errors/index.js';
import { type RunMember, type Task, TaskSchema, type TaskStatus } from '../schema/index.js';
import { parseInput } from '../state/parse-input.js';
import { assertBlockersDone, unlinkTask } from './task-dependencies.js';
import { assertTaskIds } from './task-ids.js';
import {
  callerState,
  logTaskEvent,
  requirePresent,
  requireTask,
  type TaskListParts,
} from './task-list-parts.js';
import { notLead, notOwner, unknownTask } from './task-refusals.js';
import { assertTaskTransition } from './task-status-machine.js';
import { type OwnerWork, readOwnerWork } from './task-work.js';

/** Extra facts a status move needs: a reason (blocked, cancelled) or a review note. */
export interface StatusChangeOptions {
  reason?: string;
  note?: string;
}

/** Who may make a move: owner-only work, lead-only review, or either. */
function assertMayMove(task: Task, to: TaskStatus, member: RunMember): void {
  const isOwner = task.owner !== undefined && task.owner === member.name;
  const from = task.status;
  if (to === 'in_progress' || to === 'completed') {
    if (!isOwner) throw notOwner(task, member.name, `move to ${to}`);
    return;
  }
  if (to === 'approved' || (from === 'in_review' && to === 'pending')) {
    if (!member.isLead) {
      throw notLead(member.name, to === 'approved' ? 'approve a task' : 'request changes', task.id);
    }
    return;
  }
  if (!isOwner && !member.isLead) throw notOwner(task, member.name, `move to ${to}`);
}

/** What a move changes besides the status: owner, reasons, review fields, timestamps. */
function applyMove(task: Task, to: TaskStatus, options: StatusChangeOptions, now: number): Task {
  const next: Task = { ...task, status: to, updatedAt: now };
  const from = task.status;
  if (to === 'completed') next.completedAt = now;
  if (to === 'blocked') next.blockedReason = options.reason;
  if (from === 'blocked') delete next.blockedReason;
  if (to === 'cancelled') next.cancelledReason = options.reason;
  if (to === 'pending' && (from === 'claimed' || from === 'in_progress')) {
    delete next.owner;
    delete next.claimedAt;
  }
  if (from === 'in_review' && to === 'pending') {
    next.needsFix = true;
    next.reviewNote = options.note;
    delete next.completedAt;
  }
  if (to === 'approved') {
    delete next.needsFix;
    if (options.note !== undefined) next.reviewNote = options.note;
  }
  return next;
}

function requireReason(to: TaskStatus, options: StatusChangeOptions, id: string): void {
  if ((to === 'blocked' || to === 'cancelled') && (options.reason ?? '').trim() === '') {
    throw new TeamkitError('INVALID_INPUT', `Moving task ${id} to ${to} needs a reason.`, {
      details: { taskId: id, to },
    });
  }
}

/**
 * Moves a task through the status machine (claims and deletions go through
 * {@link claimTask} and {@link deleteTask}); the caller must be allowed to make the move.
 */
export async function moveTask(
  parts: TaskListParts,
  caller: string,
  id: string,
  to: TaskStatus,
  options: StatusChangeOptions,
): Promise<Task> {
  const { state, member } = await callerState(parts, caller);
  assertTaskIds([id]);
  // The owner's branch head is read before the task is locked: git is slow, and the work
  // belongs to whoever owns the task when the move is written (checked there).
  let found: OwnerWork = { work: undefined };
  if (to === 'completed' || to === 'in_review') {
    const owner = (await requireTask(parts, id)).owner;
    if (owner !== undefined) found = await readOwnerWork(parts.git, state, owner, parts.run.now());
  }
  const moved = await parts.tasks.updateTask(id, {
    async next(current) {
      const task = requirePresent(current, id);
      assertTaskTransition(id, task.status, to);
      assertMayMove(task, to, member);
      requireReason(to, options, id);
      if (task.status === 'in_review' && to === 'pending' && (options.note ?? '').trim() === '') {
        throw new TeamkitError(
          'INVALID_INPUT',
          `Requesting changes on task ${id} needs a review note saying what to fix.`,
          { details: { taskId: id } },
        );
      }
      if (to === 'completed' || to === 'approved') await assertBlockersDone(parts, task, to);
      const next = applyMove(task, to, options, parts.run.now());
      if (found.work !== undefined && found.work.member === task.owner) next.work = found.work;
      return parseInput(TaskSchema, next, `task ${id}`);
    },
    written: async (next, previous) => {
      await logTaskEvent(parts, caller, 'task.status', [id], {
        from: previous?.status,
        to,
        sequence: next.sequence,
        ...(found.work === undefined ? {} : { commit: found.work.commit }),
      });
      if (found.work === undefined && found.reason !== undefined) {
        await logTaskEvent(parts, caller, 'task.work_unrecorded', [id], { reason: found.reason });
      }
    },
  });
  return requirePresent(moved, id);
}

/** Owner or lead: marks the task deleted and removes it from every other task's edges. */
export async function deleteTask(
  parts: TaskListParts,
  caller: string,
  id: string,
  reason?: string,
): Promise<Task> {
  const { member } = await callerState(parts, caller);
  assertTaskIds([id]);
  return parts.tasks.withListLock(async () => {
    const task = await requireTask(parts, id);
    assertTaskTransition(id, task.status, 'deleted');
    if (task.owner !== caller && !member.isLead) throw notOwner(task, caller, 'delete');
    const partners = [...new Set([...task.blocks, ...task.blockedBy])];
    const now = parts.run.now();
    // Edges change only under the list lock held here, so `partners` stays right.
    await unlinkTask(parts, id, partners, now);
    const deleted = await parts.tasks.updateTask(id, {
      next(current) {
        const present = requirePresent(current, id);
        return {
          ...present,
          status: 'deleted',
          blocks: [],
          blockedBy: [],
          updatedAt: now,
          ...(reason === undefined ? {} : { cancelledReason: reason }),
        };
      },
      written: (next, previous) =>
        logTaskEvent(parts, caller, 'task.deleted', [id], {
          from: previous?.status,
          partners,
          sequence: next.sequence,
        }),
    });
    if (deleted === undefined) throw unknownTask(id);
    return deleted;
  });
}
