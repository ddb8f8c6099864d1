import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { TeamkitError } from '../errors/index.js';
import type { MemberClient } from '../runtime/member-client.js';
import { defineTeamTool } from './team-tool.js';
import {
  messagesText,
  ToolMessageSchema,
  ToolProblemSchema,
  toolMessage,
  toolProblem,
} from './tool-results.js';

/** The longest `wait_for_mail` wait: under the shortest default tool timeout of the hosts (Codex, 60 s). */
export const MAX_MAIL_WAIT_SECONDS = 50;
const POLL_MS = 200;

/** The kinds of message a caller may send with `send_message` (the others belong to protocols). */
export const SEND_MESSAGE_KINDS = ['message', 'announcement', 'task_update'] as const;

const MailOutput = z.object({
  messages: z.array(ToolMessageSchema),
  acknowledged: z.boolean(),
  /** Inbox files that could not be read: reported, left in place, never silently dropped. */
  problems: z.array(ToolProblemSchema).optional(),
});

async function readMail(client: MemberClient, ack: boolean): Promise<z.infer<typeof MailOutput>> {
  const { messages, problems } = await client.mailbox.listUnread(client.member);
  if (ack && messages.length > 0) {
    await client.acknowledge(messages.map((message) => message.messageId));
  }
  return {
    messages: messages.map(toolMessage),
    acknowledged: ack && messages.length > 0,
    ...(problems.length === 0 ? {} : { problems: problems.map(toolProblem) }),
  };
}

const FULL_MESSAGE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MESSAGE_ID_PREFIX = /^[0-9a-f][0-9a-f-]{3,34}$/;

/**
 * The full ids of the given ones: a full id stands for itself (acknowledging twice is
 * harmless); a shorter one must be the prefix, at least four characters, of exactly one
 * unread message. Returns what matched and what matched nothing.
 */
async function resolveMessageIds(
  client: MemberClient,
  given: readonly string[],
): Promise<{ resolved: string[]; missing: string[] }> {
  const resolved: string[] = [];
  const missing: string[] = [];
  let unread: string[] | undefined;
  for (const entry of given) {
    const id = entry.toLowerCase();
    if (FULL_MESSAGE_ID.test(id)) {
      resolved.push(id);
      continue;
    }
    unread ??= (await client.mailbox.listUnread(client.member)).messages.map(
      (message) => message.messageId,
    );
    const matches = MESSAGE_ID_PREFIX.test(id) ? unread.filter((full) => full.startsWith(id)) : [];
    if (matches.length > 1) {
      throw new TeamkitError(
        'INVALID_INPUT',
        `"${entry}" matches ${matches.length} unread messages (${matches.join(', ')}); give more characters.`,
        { details: { runId: client.runId, member: client.member, id: entry, matches } },
      );
    }
    if (matches.length === 1) resolved.push(matches[0] as string);
    else missing.push(entry);
  }
  return { resolved: [...new Set(resolved)], missing };
}

const ackInput = z
  .boolean()
  .optional()
  .describe('Also acknowledge what this call returns (default false: acknowledge once you acted).');

/** `send_message`: mail one member, or everyone with `"*"` when the team allows it. */
export const sendMessageTool = defineTeamTool({
  name: 'send_message',
  title: 'Send a team message',
  description:
    'Send a message to a team member by name, or to "*" (everyone, if the team allows it). It reaches them as soon as they are idle.',
  input: z.object({
    to: z.string().min(1).max(64).describe('The member name as listed by {status}, or "*".'),
    message: z.string().min(1).describe('The message body.'),
    summary: z.string().max(200).optional().describe('A few words shown with the message.'),
    kind: z
      .enum(SEND_MESSAGE_KINDS)
      .optional()
      .describe('What the message is (default "message").'),
  }),
  output: z.object({
    messageId: z.string(),
    /** Who sent it: the caller, as the run knows it. */
    from: z.string(),
    delivered: z.array(z.string()),
    refused: z.array(z.object({ member: z.string(), code: z.string(), message: z.string() })),
  }),
  roles: ['member', 'user'],
  readOnly: false,
  operation: (input) => `send mail to ${input.to}`,
  async handler(input, context) {
    const client = await context.client();
    const result = await client.send({
      to: input.to,
      body: input.message,
      ...(input.kind === undefined ? {} : { kind: input.kind }),
      ...(input.summary === undefined ? {} : { summary: input.summary }),
    });
    context.mailSent?.(client.runId, result.delivered);
    return {
      messageId: result.messageId,
      from: client.member,
      delivered: result.delivered,
      refused: result.refused.map((refusal) => ({ ...refusal })),
    };
  },
  text(output) {
    return [
      `message ${output.messageId} sent to ${output.delivered.join(', ') || 'nobody'}`,
      ...output.refused.map(
        (refusal) => `not sent to ${refusal.member}: ${refusal.code} ${refusal.message}`,
      ),
    ].join('\n');
  },
  protocol: { sendMessage: (name) => `the \`${name('send_message')}\` tool` },
});

/** `read_messages`: the caller's unread mail; reading is not acknowledging unless asked. */
export const readMessagesTool = defineTeamTool({
  name: 'read_messages',
  title: 'Read team messages',
  description:
    'Read your unread team messages (as <team_message> envelopes), oldest first. They stay unread until you acknowledge them with {acknowledge} (or pass ack: true).',
  input: z.object({ ack: ackInput }),
  output: MailOutput,
  roles: ['member', 'user'],
  readOnly: false,
  operation: () => 'read team mail',
  handler: async (input, context) => readMail(await context.client(), input.ack === true),
  text: (output) =>
    [
      messagesText(output.messages),
      ...(output.problems ?? []).map((problem) => `unreadable: ${problem.path} (${problem.code})`),
    ].join('\n'),
  protocol: {
    readMail: (name) =>
      `the \`${name('read_messages')}\` tool, then \`${name('acknowledge')}\` with the ids once you have acted on them`,
  },
});

/**
 * `acknowledge`: marks messages handled, by full id or a unique prefix of an unread one;
 * idempotent. An id that matches nothing in the caller's inbox is refused with
 * `UNKNOWN_MESSAGE` (the others are still acknowledged), never reported as acknowledged.
 */
export const acknowledgeTool = defineTeamTool({
  name: 'acknowledge',
  title: 'Acknowledge team messages',
  description:
    'Mark messages as handled, by id (or a unique prefix of at least four characters of an unread one), once you have acted on them; they are then no longer unread. Acknowledging twice is harmless; an id that matches nothing is refused.',
  input: z.object({
    messageIds: z
      .array(z.string().min(1).max(100))
      .min(1)
      .max(500)
      .describe('The ids of the messages (the id attribute of each <team_message>).'),
  }),
  output: z.object({
    acknowledged: z.array(z.string()),
    /** Ids that were acknowledged before this call. */
    alreadyAcknowledged: z.array(z.string()),
  }),
  roles: ['member', 'user'],
  readOnly: false,
  operation: () => 'acknowledge team mail',
  async handler(input, context) {
    const client = await context.client();
    const { resolved, missing } = await resolveMessageIds(client, input.messageIds);
    const outcome =
      resolved.length === 0
        ? { acknowledged: [], alreadyProcessed: [], missing: [] }
        : await client.mailbox.acknowledge(client.member, resolved);
    missing.push(...outcome.missing);
    if (missing.length > 0) {
      const handled = [...outcome.acknowledged, ...outcome.alreadyProcessed];
      throw new TeamkitError(
        'UNKNOWN_MESSAGE',
        `${client.member}'s inbox holds no unread message ${missing.join(', ')}${handled.length > 0 ? `; acknowledged ${handled.join(', ')}` : ''}. Check the ids with ${context.toolName('read_messages')} (a short id must match exactly one unread message).`,
        {
          details: {
            runId: client.runId,
            member: client.member,
            acknowledged: outcome.acknowledged,
            alreadyAcknowledged: outcome.alreadyProcessed,
            missing,
          },
        },
      );
    }
    return { acknowledged: outcome.acknowledged, alreadyAcknowledged: outcome.alreadyProcessed };
  },
  text: (output) =>
    `acknowledged ${output.acknowledged.length} message(s)${output.alreadyAcknowledged.length > 0 ? `; already acknowledged: ${output.alreadyAcknowledged.join(', ')}` : ''}`,
});

/** `wait_for_mail`: a bounded long poll, since hosts do not act on resource notifications. */
export const waitForMailTool = defineTeamTool({
  name: 'wait_for_mail',
  title: 'Wait for team mail',
  description: `Wait until a team message arrives (at most ${MAX_MAIL_WAIT_SECONDS} seconds), then return your unread mail like {read_messages}. Use it when you have nothing to do but wait for the team.`,
  input: z.object({
    timeoutSeconds: z
      .number()
      .int()
      .min(1)
      .max(MAX_MAIL_WAIT_SECONDS)
      .optional()
      .describe(`How long to wait, 1 to ${MAX_MAIL_WAIT_SECONDS} seconds (default 30).`),
    ack: ackInput,
  }),
  output: MailOutput.extend({ timedOut: z.boolean() }),
  roles: ['member', 'user'],
  readOnly: false,
  operation: () => 'wait for team mail',
  async handler(input, context) {
    const client = await context.client();
    const deadline = Date.now() + (input.timeoutSeconds ?? 30) * 1000;
    if ((await client.inbox()).length > 0)
      return { ...(await readMail(client, input.ack === true)), timedOut: false };
    const clear = await context.markWaiting?.();
    try {
      for (;;) {
        const left = deadline - Date.now();
        if (left <= 0 || context.signal?.aborted === true) {
          return { messages: [], acknowledged: false, timedOut: true };
        }
        await sleep(Math.min(POLL_MS, left), undefined, {
          ...(context.signal === undefined ? {} : { signal: context.signal }),
        }).catch(() => undefined);
        if ((await client.inbox()).length > 0) break;
      }
    } finally {
      await clear?.();
    }
    return { ...(await readMail(client, input.ack === true)), timedOut: false };
  },
  text: (output) =>
    output.timedOut ? 'no mail arrived before the wait ended' : messagesText(output.messages),
});
