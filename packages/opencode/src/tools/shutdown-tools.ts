import { type ToolDefinition, tool } from '@opencode-ai/plugin';
import type { PluginContext } from '../plugin-context.js';
import { answer, refuseUnlessLead, requireCaller } from './tool-support.js';

const z = tool.schema;

/** `team_shutdown_request`, `team_approve_shutdown` and `team_reject_shutdown`. */
export function createShutdownTools(ctx: PluginContext): Record<string, ToolDefinition> {
  return {
    team_shutdown_request: tool({
      description:
        'Lead only: ask a member to finish or hand off its work and shut down. The member answers with team_approve_shutdown or team_reject_shutdown.',
      args: {
        member: z.string().describe('The member to shut down.'),
        reason: z.string().optional(),
      },
      execute: (args, context) =>
        answer(context, async () => {
          const caller = await requireCaller(ctx, context.sessionID);
          refuseUnlessLead(caller, `ask ${args.member} to shut down`);
          await (await ctx.runtime()).requestShutdown(caller.runId, args.member, args.reason);
          return {
            output: `shutdown requested from ${args.member}`,
            metadata: { runId: caller.runId, member: args.member },
          };
        }),
    }),

    team_approve_shutdown: tool({
      description:
        'Approve the shutdown the lead asked of you, after finishing or handing off your task. Your session stops once this turn ends.',
      args: {},
      execute: (_args, context) =>
        answer(context, async () => {
          const caller = await requireCaller(ctx, context.sessionID);
          await (await ctx.runtime()).member(caller.runId, caller.member).approveShutdown();
          return {
            output: `${caller.member} approved the shutdown`,
            metadata: { runId: caller.runId },
          };
        }),
    }),

    team_reject_shutdown: tool({
      description:
        'Reject the shutdown the lead asked of you, with the reason (e.g. work still in progress).',
      args: { reason: z.string() },
      execute: (args, context) =>
        answer(context, async () => {
          const caller = await requireCaller(ctx, context.sessionID);
          await (await ctx.runtime())
            .member(caller.runId, caller.member)
            .rejectShutdown(args.reason);
          return {
            output: `${caller.member} rejected the shutdown`,
            metadata: { runId: caller.runId },
          };
        }),
    }),
  };
}
