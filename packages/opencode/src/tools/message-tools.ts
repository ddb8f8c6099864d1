import { type ToolDefinition, tool } from '@opencode-ai/plugin';
import type { PluginContext } from '../plugin-context.js';
import { answer, deliverSoon, messagesText, requireCaller } from './tool-support.js';

const z = tool.schema;

/** `team_send_message` and `team_read_messages`. */
export function createMessageTools(ctx: PluginContext): Record<string, ToolDefinition> {
  return {
    team_send_message: tool({
      description:
        'Send a message to a team member by name, or to "*" (everyone, if the team allows it). It reaches them as soon as they are idle.',
      args: {
        to: z.string().describe('The member name as listed by team_status, or "*".'),
        message: z.string().describe('The message body.'),
        summary: z.string().optional().describe('A few words shown with the message.'),
      },
      execute: (args, context) =>
        answer(context, async () => {
          const caller = await requireCaller(ctx, context.sessionID);
          const runtime = await ctx.runtime();
          const result = await runtime.member(caller.runId, caller.member).send({
            to: args.to,
            body: args.message,
            ...(args.summary === undefined ? {} : { summary: args.summary }),
          });
          deliverSoon(ctx, caller.runId, result.delivered);
          const lines = [
            `message ${result.messageId} sent to ${result.delivered.join(', ') || 'nobody'}`,
          ];
          for (const refusal of result.refused) {
            lines.push(`not sent to ${refusal.member}: ${refusal.code} ${refusal.message}`);
          }
          return {
            output: lines.join('\n'),
            metadata: {
              messageId: result.messageId,
              delivered: result.delivered,
              refused: result.refused,
            },
          };
        }),
    }),

    team_read_messages: tool({
      description:
        'Read your unread team messages (as <team_message> envelopes) and mark them read. Messages also arrive by themselves when you are idle.',
      args: {},
      execute: (_args, context) =>
        answer(context, async () => {
          const caller = await requireCaller(ctx, context.sessionID);
          const client = (await ctx.runtime()).member(caller.runId, caller.member);
          const messages = await client.inbox();
          // Shown in this tool's result, which is in the session's history: that is the receipt.
          await client.acknowledge(messages.map((message) => message.messageId));
          return {
            output: messagesText(messages),
            metadata: { count: messages.length, ids: messages.map((message) => message.messageId) },
          };
        }),
    }),
  };
}
