import { type Task, TaskSchema } from '../schema/index.js';
import { parseInput } from '../state/parse-input.js';
import { assertNoCycleThroughNewTask, linkNewTask } from './task-dependencies.js';
import { assertTaskIds, nextTaskId } from './task-ids.js';
import { callerState, logTaskEvent, type TaskListParts } from './task-list-parts.js';
import { unknownTask } from './task-refusals.js';

/** What a member creates. Dependencies name existing task ids. */
export interface CreateTaskInput {
  subject: string;
  description?: string;
  activeForm?: string;
  /** Tasks that must be done before this one can be claimed. */
  blockedBy?: string[];
  /** Tasks this one must be done before. */
  blocks?: string[];
  metadata?: Record<string, unknown>;
}

/** Creates a task with the next never-used id; edges are made symmetric. */
export async function createTask(
  parts: TaskListParts,
  caller: string,
  input: CreateTaskInput,
): Promise<Task> {
  await callerState(parts, caller);
  const blockedBy = [...new Set(input.blockedBy ?? [])];
  const blocks = [...new Set(input.blocks ?? [])];
  assertTaskIds([...blockedBy, ...blocks]);
  return parts.tasks.withListLock(async (listLock) => {
    const { byId } = await parts.tasks.readAllTasks();
    for (const id of [...blockedBy, ...blocks]) {
      const task = byId.get(id);
      if (task === undefined || task.status === 'deleted') throw unknownTask(id);
    }
    const id = await nextTaskId(parts.tasks);
    assertNoCycleThroughNewTask(id, blockedBy, blocks, byId);
    const now = parts.run.now();
    const candidate = {
      version: 1 as const,
      id,
      subject: input.subject,
      description: input.description ?? '',
      activeForm: input.activeForm,
      status: 'pending' as const,
      blocks,
      blockedBy,
      metadata: input.metadata,
      createdAt: now,
      updatedAt: now,
    };
    const task: Task = parseInput(TaskSchema, candidate, `task ${id}`);
    // The watermark moves first: a crash after it only skips an id, never reuses one.
    await parts.tasks.writeWatermark(id, listLock);
    await parts.tasks.createTask(task);
    await linkNewTask(parts, id, blockedBy, blocks, now);
    await logTaskEvent(parts, caller, 'task.created', [id], { blockedBy, blocks });
    return task;
  });
}
