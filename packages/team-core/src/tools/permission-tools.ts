import { z } from 'zod';
import { findLead } from '../state/index.js';
import { defineTeamTool } from './team-tool.js';

const RequestSchema = z.object({
  id: z.string(),
  member: z.string(),
  action: z.string(),
  path: z.string().optional(),
  status: z.enum(['pending', 'approved', 'denied']),
  reason: z.string().optional(),
  decidedBy: z.string().optional(),
});
const PermissionOutput = z.object({ request: RequestSchema });
type PermissionOutput = z.infer<typeof PermissionOutput>;

function requestOutput(request: {
  id: string;
  member: string;
  action: string;
  path?: string | undefined;
  status: 'pending' | 'approved' | 'denied';
  reason?: string | undefined;
  decidedBy?: string | undefined;
}): PermissionOutput {
  return {
    request: {
      id: request.id,
      member: request.member,
      action: request.action,
      status: request.status,
      ...(request.path === undefined ? {} : { path: request.path }),
      ...(request.reason === undefined ? {} : { reason: request.reason }),
      ...(request.decidedBy === undefined ? {} : { decidedBy: request.decidedBy }),
    },
  };
}

/** `permission_request`: a member asks the lead before acting outside its worktree. */
export const permissionRequestTool = defineTeamTool({
  name: 'permission_request',
  title: 'Ask the lead for permission',
  description:
    'Ask the lead for permission before acting outside your worktree (an action, and the absolute path it touches). The lead is told at once and answers with a message.',
  input: z.object({
    action: z.string().min(1).max(200).describe('What you want to do, e.g. "write" or "bash".'),
    path: z.string().max(4096).optional().describe('The absolute path it touches, if any.'),
    reason: z.string().max(2_000).optional().describe('Why you need it.'),
  }),
  output: PermissionOutput,
  roles: ['member'],
  readOnly: false,
  operation: (input) => `ask permission to ${input.action}`,
  async handler(input, context) {
    const client = await context.client();
    const request = await client.requestPermission({
      action: input.action,
      ...(input.path === undefined ? {} : { path: input.path }),
      ...(input.reason === undefined ? {} : { reason: input.reason }),
    });
    const lead = findLead(await client.state())?.name;
    if (lead !== undefined && lead !== client.member) {
      const sent = await client.send({
        to: lead,
        summary: 'permission request',
        body: `${client.member} asks permission to ${request.action}${request.path === undefined ? '' : ` on ${request.path}`}${request.reason === undefined ? '' : `: ${request.reason}`}. Decide with ${context.toolName('permission_decide')} (request ${request.id}).`,
      });
      context.mailSent?.(client.runId, sent.delivered);
    }
    return requestOutput(request);
  },
  text: ({ request }) =>
    `permission request ${request.id} is ${request.status}; the lead has been told`,
});

/** `permission_list`: the run's permission requests (a member sees its own). */
export const permissionListTool = defineTeamTool({
  name: 'permission_list',
  title: 'List permission requests',
  description:
    "List the run's permission requests and how each was decided; members see their own, the lead every one. With pending, only those still waiting.",
  input: z.object({ pending: z.boolean().optional().describe('Only requests not decided yet.') }),
  output: z.object({ runId: z.string(), requests: z.array(RequestSchema) }),
  roles: ['member', 'lead', 'user'],
  readOnly: true,
  operation: () => 'list permission requests',
  async handler(input, context) {
    const client = await context.client();
    const state = await client.state();
    const sees = context.caller.kind === 'user' || findLead(state)?.name === client.member;
    const requests = state.permissionRequests
      .filter((request) => sees || request.member === client.member)
      .filter((request) => input.pending !== true || request.status === 'pending')
      .map((request) => requestOutput(request).request);
    return { runId: client.runId, requests };
  },
  text: (output) =>
    output.requests.length === 0
      ? 'no permission requests'
      : output.requests
          .map(
            (request) =>
              `${request.id} ${request.status} ${request.member}: ${request.action}${request.path === undefined ? '' : ` ${request.path}`}${request.decidedBy === undefined ? '' : ` (by ${request.decidedBy})`}`,
          )
          .join('\n'),
});

/** `permission_decide`: the lead approves or denies a member's permission request. */
export const permissionDecideTool = defineTeamTool({
  name: 'permission_decide',
  title: 'Decide a permission request',
  description:
    "Lead only: approve or deny a member's permission request by its id (see {permission_list}); with remember, an approved path stays allowed for that member. The member is told.",
  input: z.object({
    requestId: z.string().min(1).max(100).describe('The id of the permission request.'),
    decision: z.enum(['approved', 'denied']),
    reason: z.string().max(2_000).optional(),
    remember: z.boolean().optional().describe('Keep an approved path allowed for the member.'),
  }),
  output: PermissionOutput,
  roles: ['lead', 'user'],
  readOnly: false,
  operation: () => 'decide permission requests',
  async handler(input, context) {
    const client = await context.client();
    const request = await client.decidePermission(input.requestId, {
      decision: input.decision,
      ...(input.reason === undefined ? {} : { reason: input.reason }),
      ...(input.remember === undefined ? {} : { remember: input.remember }),
    });
    if (request.member !== client.member) {
      const sent = await client.send({
        to: request.member,
        summary: `permission ${request.status}`,
        body: `Your permission request ${request.id} to ${request.action}${request.path === undefined ? '' : ` on ${request.path}`} was ${request.status}${input.reason === undefined ? '' : `: ${input.reason}`}.`,
      });
      context.mailSent?.(client.runId, sent.delivered);
    }
    return requestOutput(request);
  },
  text: ({ request }) => `permission request ${request.id} ${request.status}`,
});
