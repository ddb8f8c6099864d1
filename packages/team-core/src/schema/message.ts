import { z } from 'zod';
import { MemberNameSchema, RunIdSchema, TimestampSchema } from './names.js';

/** Every kind of mailbox message. */
export const MESSAGE_KINDS = [
  'message',
  'announcement',
  'shutdown_request',
  'shutdown_approved',
  'shutdown_rejected',
  'permission_request',
  'permission_response',
  'plan_approval_request',
  'plan_approval_response',
  'idle_notification',
  'task_update',
] as const;

/** A mailbox message kind. */
export type MessageKind = (typeof MESSAGE_KINDS)[number];

/** A file a message points at, with an optional note. */
export const MessageReferenceSchema = z.strictObject({
  path: z.string().min(1).max(4096),
  description: z.string().max(1000).optional(),
});

/**
 * One message as stored in a recipient's inbox (`<messageId>.json`). A broadcast
 * writes one copy per recipient with the same id and `broadcast: true`.
 */
export const MessageSchema = z.object({
  version: z.literal(1),
  messageId: z.uuid(),
  runId: RunIdSchema,
  from: MemberNameSchema,
  to: MemberNameSchema,
  broadcast: z.boolean().optional(),
  kind: z.enum(MESSAGE_KINDS),
  body: z.string(),
  summary: z.string().max(200).optional(),
  references: z.array(MessageReferenceSchema).max(32).optional(),
  timestamp: TimestampSchema,
  correlationId: z.uuid().optional(),
  color: z.string().max(32).optional(),
});

/** A stored mailbox message. */
export type Message = z.infer<typeof MessageSchema>;
/** A reference attached to a message. */
export type MessageReference = z.infer<typeof MessageReferenceSchema>;
