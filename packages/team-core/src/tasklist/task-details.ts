import type { Task } from '../schema/index.js';
import { assertTaskIds } from './task-ids.js';
import {
  callerState,
  logTaskEvent,
  requirePresent,
  type TaskListParts,
} from './task-list-parts.js';
import { notOwner } from './task-refusals.js';

/** Editable text fields of a task. */
export interface TaskDetailsPatch {
  subject?: string;
  description?: string;
  activeForm?: string;
  metadata?: Record<string, unknown>;
}

/** Owner or lead: edits subject, description, activeForm or metadata. */
export async function updateTaskDetails(
  parts: TaskListParts,
  caller: string,
  id: string,
  patch: TaskDetailsPatch,
): Promise<Task> {
  const { member } = await callerState(parts, caller);
  assertTaskIds([id]);
  const updated = await parts.tasks.updateTask(id, {
    next(current) {
      const task = requirePresent(current, id);
      if (task.owner !== caller && !member.isLead) throw notOwner(task, caller, 'edit');
      const next: Task = { ...task, updatedAt: parts.run.now() };
      if (patch.subject !== undefined) next.subject = patch.subject;
      if (patch.description !== undefined) next.description = patch.description;
      if (patch.activeForm !== undefined) next.activeForm = patch.activeForm;
      if (patch.metadata !== undefined) next.metadata = patch.metadata;
      return next;
    },
    written: () =>
      logTaskEvent(parts, caller, 'task.updated', [id], { fields: Object.keys(patch) }),
  });
  return requirePresent(updated, id);
}
