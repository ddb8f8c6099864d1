import { z } from 'zod';
import { MESSAGE_KINDS, MessageReferenceSchema } from '../schema/index.js';

// The shapes the mailbox's public methods accept. They check what the code relies on
// (types, and that callbacks are functions); the message schema checks the rest.

/** A member name argument. */
export const MemberArgument = z.string();

/** A list of message ids. */
export const MessageIdsArgument = z.array(z.string());

/** What `sendMessage` accepts. */
export const SendMessageInputSchema = z.object({
  from: z.string(),
  to: z.string(),
  kind: z.enum(MESSAGE_KINDS).optional(),
  body: z.string(),
  summary: z.string().optional(),
  references: z.array(MessageReferenceSchema).optional(),
  correlationId: z.string().optional(),
  color: z.string().optional(),
  messageId: z.string().optional(),
});

const isFunction = (value: unknown) => typeof value === 'function';

/** The `onMessages` callback of `watchInbox`. */
export const OnMessagesArgument = z.custom<(messages: never[]) => unknown>(
  isFunction,
  'expected a function',
);

/** The options of `watchInbox`. */
export const InboxWatchOptionsSchema = z
  .object({
    reconcileIntervalMs: z
      .number()
      .min(1)
      .max(2 ** 31 - 1)
      .optional(),
    onError: z.custom<(error: unknown) => void>(isFunction, 'expected a function').optional(),
  })
  .optional();
