import { z } from 'zod';
import { defineTeamTool } from './team-tool.js';

/** `shutdown_request`: the lead asks a member to finish or hand off and stop. */
export const shutdownRequestTool = defineTeamTool({
  name: 'shutdown_request',
  title: 'Ask a member to shut down',
  description:
    'Lead only: ask a member to finish or hand off its work and shut down. The member answers with {approve_shutdown} or {reject_shutdown}.',
  input: z.object({
    member: z.string().min(1).max(64).describe('The member to shut down.'),
    reason: z.string().max(2_000).optional(),
  }),
  output: z.object({ runId: z.string(), member: z.string() }),
  roles: ['lead', 'user'],
  readOnly: false,
  operation: (input) => `ask ${input.member} to shut down`,
  async handler(input, context) {
    const client = await context.client();
    await client.requestShutdown(input.member, input.reason);
    context.mailSent?.(client.runId, [input.member]);
    return { runId: client.runId, member: input.member };
  },
  text: (output) => `shutdown requested from ${output.member}`,
  protocol: { requestShutdown: (name) => `the \`${name('shutdown_request')}\` tool` },
});

/** `approve_shutdown`: a member agrees to stop once its turn ends. */
export const approveShutdownTool = defineTeamTool({
  name: 'approve_shutdown',
  title: 'Approve your shutdown',
  description:
    'Approve the shutdown the lead asked of you, after finishing or handing off your task. Your session stops once this turn ends.',
  input: z.object({}),
  output: z.object({ runId: z.string(), member: z.string() }),
  roles: ['member'],
  readOnly: false,
  operation: () => 'approve a shutdown',
  async handler(_input, context) {
    const client = await context.client();
    await client.approveShutdown();
    return { runId: client.runId, member: client.member };
  },
  text: (output) => `${output.member} approved the shutdown`,
  protocol: { approveShutdown: (name) => `the \`${name('approve_shutdown')}\` tool` },
});

/** `reject_shutdown`: a member declines, saying why. */
export const rejectShutdownTool = defineTeamTool({
  name: 'reject_shutdown',
  title: 'Reject your shutdown',
  description:
    'Reject the shutdown the lead asked of you, with the reason (e.g. work still in progress).',
  input: z.object({ reason: z.string().min(1).max(2_000) }),
  output: z.object({ runId: z.string(), member: z.string() }),
  roles: ['member'],
  readOnly: false,
  operation: () => 'reject a shutdown',
  async handler(input, context) {
    const client = await context.client();
    await client.rejectShutdown(input.reason);
    return { runId: client.runId, member: client.member };
  },
  text: (output) => `${output.member} rejected the shutdown`,
  protocol: { rejectShutdown: (name) => `the \`${name('reject_shutdown')}\` tool` },
});
