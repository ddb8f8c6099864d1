import { z } from 'zod';
import { renderMessages } from '../runtime/render-messages.js';
import {
  MESSAGE_KINDS,
  type Message,
  TASK_STATUSES,
  type Task,
  TaskWorkSchema,
} from '../schema/index.js';
import type { DocumentProblem } from '../storage/index.js';

/** A stored file that could not be read, as tools report it (left in place, never dropped). */
export const ToolProblemSchema = z.object({
  path: z.string(),
  code: z.string(),
  message: z.string(),
});
/** A problem in a tool result. */
export type ToolProblem = z.infer<typeof ToolProblemSchema>;

/** A document problem, reduced to its {@link ToolProblemSchema} shape. */
export function toolProblem(problem: DocumentProblem): ToolProblem {
  return { path: problem.path, code: problem.code, message: problem.message };
}

/** A task as tools return it: what a member needs to act on it, without storage fields. */
export const ToolTaskSchema = z.object({
  id: z.string(),
  subject: z.string(),
  status: z.enum(TASK_STATUSES),
  owner: z.string().optional(),
  description: z.string().optional(),
  blockedBy: z.array(z.string()),
  blocks: z.array(z.string()),
  reviewNote: z.string().optional(),
  blockedReason: z.string().optional(),
  cancelledReason: z.string().optional(),
  needsFix: z.boolean().optional(),
  /** The role expected to take it (`metadata.role`), when its creator named one. */
  role: z.string().optional(),
  /** The work recorded for it (member, branch, commits), once its owner recorded some. */
  work: TaskWorkSchema.optional(),
});
/** A task in a tool result. */
export type ToolTask = z.infer<typeof ToolTaskSchema>;

/** A message as tools return it. */
export const ToolMessageSchema = z.object({
  messageId: z.string(),
  from: z.string(),
  /** Its recipient (the member whose inbox holds it). */
  to: z.string(),
  kind: z.enum(MESSAGE_KINDS),
  at: z.string(),
  summary: z.string().optional(),
  body: z.string(),
  correlationId: z.string().optional(),
  broadcast: z.boolean().optional(),
});
/** A message in a tool result. */
export type ToolMessage = z.infer<typeof ToolMessageSchema>;

/** A task, reduced to its {@link ToolTaskSchema} shape. */
export function toolTask(task: Task): ToolTask {
  return {
    id: task.id,
    subject: task.subject,
    status: task.status,
    ...(task.owner === undefined ? {} : { owner: task.owner }),
    ...(task.description === '' ? {} : { description: task.description }),
    blockedBy: [...task.blockedBy],
    blocks: [...task.blocks],
    ...(task.reviewNote === undefined ? {} : { reviewNote: task.reviewNote }),
    ...(task.blockedReason === undefined ? {} : { blockedReason: task.blockedReason }),
    ...(task.cancelledReason === undefined ? {} : { cancelledReason: task.cancelledReason }),
    ...(task.needsFix === undefined ? {} : { needsFix: task.needsFix }),
    ...(typeof task.metadata?.role === 'string' ? { role: task.metadata.role } : {}),
    ...(task.work === undefined ? {} : { work: task.work }),
  };
}

/** A message, reduced to its {@link ToolMessageSchema} shape. */
export function toolMessage(message: Message): ToolMessage {
  return {
    messageId: message.messageId,
    from: message.from,
    to: message.to,
    kind: message.kind,
    at: new Date(message.timestamp).toISOString(),
    ...(message.summary === undefined ? {} : { summary: message.summary }),
    body: message.body,
    ...(message.correlationId === undefined ? {} : { correlationId: message.correlationId }),
    ...(message.broadcast ? { broadcast: true } : {}),
  };
}

/** One task as one line: `#3 [pending] subject (owner: x; blocked by 1, 2)`. */
export function taskLine(task: ToolTask): string {
  const details = [
    task.owner === undefined ? undefined : `owner: ${task.owner}`,
    task.blockedBy.length > 0 ? `blocked by ${task.blockedBy.join(', ')}` : undefined,
    task.blocks.length > 0 ? `blocks ${task.blocks.join(', ')}` : undefined,
  ].filter((item): item is string => item !== undefined);
  return `#${task.id} [${task.status}] ${task.subject}${details.length > 0 ? ` (${details.join('; ')})` : ''}`;
}

/** Messages as the `<team_message>` envelopes members read, or a line saying there are none. */
export function messagesText(messages: readonly ToolMessage[]): string {
  if (messages.length === 0) return 'no unread messages';
  return renderMessages(
    messages.map((message) => ({
      version: 1 as const,
      messageId: message.messageId,
      runId: '00000000-0000-4000-8000-000000000000',
      from: message.from,
      to: message.to,
      kind: message.kind,
      body: message.body,
      timestamp: Date.parse(message.at),
      ...(message.summary === undefined ? {} : { summary: message.summary }),
      ...(message.correlationId === undefined ? {} : { correlationId: message.correlationId }),
      ...(message.broadcast ? { broadcast: true } : {}),
    })),
  );
}

/** A task id as tools take it: `"3"` or `3`. */
export const toolTaskId = () =>
  z.coerce
    .string()
    .regex(/^[1-9][0-9]{0,15}$/, 'a task id is a positive number such as "3"')
    .describe('The task id, e.g. "3".');
