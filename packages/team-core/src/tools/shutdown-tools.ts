import { z } from 'zod';
import { defineTeamTool } from './team-tool.js';

const RequestsOutput = z.object({
  runId: z.string(),
  /** The member asked, or `*`. */
  member: z.string(),
  requests: z.array(z.object({ member: z.string(), id: z.string().optional() })),
});

/** `shutdown_request`: the lead (or the user) asks a member, or everyone, to shut down. */
export const shutdownRequestTool = defineTeamTool({
  name: 'shutdown_request',
  title: 'Ask a member to shut down',
  description:
    'Lead only: ask a member to finish or hand off its work and shut down, or every member still working with member "*". Each answers with {approve_shutdown} or {reject_shutdown}; the run completes once everyone has shut down and you end.',
  input: z.object({
    member: z.string().min(1).max(64).describe('The member to shut down, or "*" for everyone.'),
    reason: z.string().max(2_000).optional(),
  }),
  output: RequestsOutput,
  roles: ['lead', 'user'],
  readOnly: false,
  operation: (input) =>
    input.member === '*' ? 'shut down everyone in the run' : `ask ${input.member} to shut down`,
  async handler(input, context) {
    const client = await context.client();
    const outcome = await client.requestShutdown(input.member, input.reason);
    context.mailSent?.(
      client.runId,
      outcome.requests.map((request) => request.member),
    );
    return {
      runId: client.runId,
      member: input.member,
      requests: outcome.requests.map((request) => ({
        member: request.member,
        ...(request.id === undefined ? {} : { id: request.id }),
      })),
    };
  },
  text: (output) =>
    output.requests.length === 0
      ? 'no member is still working; nobody was asked to shut down'
      : `shutdown requested from ${output.requests.map((request) => `${request.member}${request.id === undefined ? '' : ` (request ${request.id})`}`).join(', ')}`,
  protocol: { requestShutdown: (name) => `the \`${name('shutdown_request')}\` tool` },
});

const AnswerOutput = z.object({
  runId: z.string(),
  member: z.string(),
  requestId: z.string().optional(),
});

const RequestIdInput = z
  .string()
  .min(4)
  .max(36)
  .optional()
  .describe('The id of the shutdown request (from its message); optional, you have at most one.');

/** `approve_shutdown`: a member agrees to stop once its turn ends. */
export const approveShutdownTool = defineTeamTool({
  name: 'approve_shutdown',
  title: 'Approve your shutdown',
  description:
    'Approve the shutdown the lead asked of you, after finishing or handing off your task. Your session stops once this turn ends.',
  input: z.object({ requestId: RequestIdInput }),
  output: AnswerOutput,
  roles: ['member'],
  readOnly: false,
  operation: () => 'approve a shutdown',
  async handler(input, context) {
    const client = await context.client();
    const answered = await client.approveShutdown(input.requestId);
    return {
      runId: client.runId,
      member: client.member,
      ...(answered.id === undefined ? {} : { requestId: answered.id }),
    };
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
  input: z.object({ reason: z.string().min(1).max(2_000), requestId: RequestIdInput }),
  output: AnswerOutput,
  roles: ['member'],
  readOnly: false,
  operation: () => 'reject a shutdown',
  async handler(input, context) {
    const client = await context.client();
    const answered = await client.rejectShutdown(input.reason, input.requestId);
    return {
      runId: client.runId,
      member: client.member,
      ...(answered.id === undefined ? {} : { requestId: answered.id }),
    };
  },
  text: (output) => `${output.member} rejected the shutdown`,
  protocol: { rejectShutdown: (name) => `the \`${name('reject_shutdown')}\` tool` },
});
