import { z } from 'zod';
import { TASK_STATUSES } from '../schema/index.js';

// The shapes the task list's public methods accept. They check types and the lengths the
// stored task allows; ids and names are checked where they are used.

/** A caller, member or task id argument. */
export const NameArgument = z.string();

/** A task status argument. */
export const TaskStatusArgument = z.enum(TASK_STATUSES);

const metadata = z.record(z.string(), z.json());

/** What `createTask` accepts. */
export const CreateTaskInputSchema = z.object({
  subject: z.string(),
  description: z.string().optional(),
  activeForm: z.string().optional(),
  blockedBy: z.array(z.string()).optional(),
  blocks: z.array(z.string()).optional(),
  metadata: metadata.optional(),
});

/** What `listTasks` accepts. */
export const TaskFilterSchema = z
  .object({
    status: z.union([TaskStatusArgument, z.array(TaskStatusArgument)]).optional(),
    owner: z.string().optional(),
    includeDeleted: z.boolean().optional(),
  })
  .optional();

/** A reason for blocking, cancelling or deleting a task (stored, so bounded like the task). */
export const ReasonArgument = z.string().max(2_000);

/** What `setTaskStatus` accepts besides the status. */
export const StatusChangeOptionsSchema = z
  .object({ reason: ReasonArgument.optional(), note: z.string().max(20_000).optional() })
  .optional();

/** What `updateTaskDetails` accepts. */
export const TaskDetailsPatchSchema = z.object({
  subject: z.string().optional(),
  description: z.string().optional(),
  activeForm: z.string().optional(),
  metadata: metadata.optional(),
});
