import { TeamkitError } from '../errors/index.js';
import { NAME_PATTERN, type Task } from '../schema/index.js';

/** `UNKNOWN_TASK`: no task `id` exists (or it is deleted). */
export function unknownTask(id: string): TeamkitError {
  return new TeamkitError('UNKNOWN_TASK', `No task ${id} exists in this run.`, {
    details: { taskId: id },
  });
}

/** `NOT_OWNER`: `caller` may not `action` the task, naming its owner. */
export function notOwner(task: Task, caller: string, action: string): TeamkitError {
  return new TeamkitError(
    'NOT_OWNER',
    `${caller} may not ${action} task ${task.id}: ${task.owner === undefined ? 'it has no owner and only the lead may' : `it is owned by ${task.owner}`}.`,
    { details: { taskId: task.id, caller, owner: task.owner ?? null, action } },
  );
}

/** `NOT_LEAD`: only the lead may `action`. */
export function notLead(caller: string, action: string, taskId: string): TeamkitError {
  return new TeamkitError(
    'NOT_LEAD',
    `Only the team lead may ${action}; ${caller} is not the lead.`,
    {
      details: { taskId, caller, action },
    },
  );
}

/** Refuses a value that is not shaped like a member name (`INVALID_INPUT`). */
export function assertMemberName(name: string): void {
  if (typeof name !== 'string' || !NAME_PATTERN.test(name)) {
    throw new TeamkitError('INVALID_INPUT', `${JSON.stringify(name)} is not a member name.`, {
      details: { member: name },
    });
  }
}
