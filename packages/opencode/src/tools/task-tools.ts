import { type ToolDefinition, tool } from '@opencode-ai/plugin';
import { type MemberClient, TASK_STATUSES, type Task } from '@teamkit/team-core';
import type { PluginContext } from '../plugin-context.js';
import { answer, requireCaller, ToolRefusal, taskLine } from './tool-support.js';

const z = tool.schema;
const taskId = () => z.coerce.string().describe('The task id, e.g. "3".');

const UPDATE_STATUSES = [
  'in_progress',
  'completed',
  'in_review',
  'approved',
  'pending',
  'blocked',
  'cancelled',
  'deleted',
] as const;

type UpdateStatus = (typeof UPDATE_STATUSES)[number];

function moveTask(
  client: MemberClient,
  id: string,
  status: UpdateStatus,
  note: string | undefined,
  current: Task,
): Promise<Task> {
  switch (status) {
    case 'in_progress':
      return client.startTask(id);
    case 'completed':
      return client.completeTask(id);
    case 'in_review':
      return client.submitForReview(id);
    case 'approved':
      return client.approveTask(id);
    case 'pending':
      if (current.status === 'in_review' || current.status === 'completed') {
        if (note === undefined) {
          throw new ToolRefusal(
            'INVALID_INPUT',
            'Requesting changes needs a note saying what to change.',
          );
        }
        return client.requestChanges(id, note);
      }
      return current.status === 'blocked' ? client.unblockTask(id) : client.releaseTask(id);
    case 'blocked':
      return client.blockTask(id, note ?? 'blocked');
    case 'cancelled':
      return client.cancelTask(id, note ?? 'cancelled');
    case 'deleted':
      return client.deleteTask(id, note);
  }
}

/** `team_task_create`, `team_task_list`, `team_task_get`, `team_task_claim` and `team_task_update`. */
export function createTaskTools(ctx: PluginContext): Record<string, ToolDefinition> {
  const clientOf = async (sessionId: string) => {
    const caller = await requireCaller(ctx, sessionId);
    return (await ctx.runtime()).member(caller.runId, caller.member);
  };
  return {
    team_task_create: tool({
      description:
        "Create a task on the team's task list. Use blockedBy for tasks that must be done first; members claim ready tasks with team_task_claim.",
      args: {
        subject: z.string().describe('A short imperative title.'),
        description: z
          .string()
          .optional()
          .describe('What done means: acceptance criteria, context.'),
        blockedBy: z
          .array(z.coerce.string())
          .optional()
          .describe('Ids of tasks that must be done first.'),
      },
      execute: (args, context) =>
        answer(context, async () => {
          const client = await clientOf(context.sessionID);
          const task = await client.createTask({
            subject: args.subject,
            ...(args.description === undefined ? {} : { description: args.description }),
            ...(args.blockedBy === undefined ? {} : { blockedBy: args.blockedBy }),
          });
          const blocked =
            task.blockedBy.length > 0 ? ` (blocked by ${task.blockedBy.join(', ')})` : '';
          return {
            output: `task ${task.id} created${blocked}`,
            metadata: { task },
          };
        }),
    }),

    team_task_list: tool({
      description:
        "List the team's tasks, optionally only those ready to claim, by status or owner.",
      args: {
        ready: z
          .boolean()
          .optional()
          .describe('Only tasks that are pending, unowned and unblocked.'),
        status: z.enum(TASK_STATUSES).optional(),
        owner: z.string().optional(),
      },
      execute: (args, context) =>
        answer(context, async () => {
          const client = await clientOf(context.sessionID);
          const tasks = args.ready
            ? await client.readyTasks()
            : (
                await client.listTasks({
                  ...(args.status === undefined ? {} : { status: args.status }),
                  ...(args.owner === undefined ? {} : { owner: args.owner }),
                })
              ).tasks;
          return {
            output: tasks.length === 0 ? 'no tasks' : tasks.map(taskLine).join('\n'),
            metadata: { ids: tasks.map((task) => task.id) },
          };
        }),
    }),

    team_task_get: tool({
      description: 'Show one task with its description, dependencies and review notes.',
      args: { id: taskId() },
      execute: (args, context) =>
        answer(context, async () => {
          const task = await (await clientOf(context.sessionID)).getTask(args.id);
          const lines = [taskLine(task)];
          if (task.description) lines.push(task.description);
          if (task.reviewNote) lines.push(`review note: ${task.reviewNote}`);
          if (task.blockedReason) lines.push(`blocked: ${task.blockedReason}`);
          return { output: lines.join('\n'), metadata: { task } };
        }),
    }),

    team_task_claim: tool({
      description:
        'Claim a ready task for yourself; then move it to in_progress with team_task_update.',
      args: { id: taskId() },
      execute: (args, context) =>
        answer(context, async () => {
          const task = await (await clientOf(context.sessionID)).claimTask(args.id);
          return {
            output: `task ${task.id} claimed by ${task.owner ?? 'you'}`,
            metadata: { task },
          };
        }),
    }),

    team_task_update: tool({
      description:
        'Move a task: in_progress, completed, in_review, approved (lead), pending (release, unblock, or request changes with a note), blocked, cancelled or deleted (with a note as the reason); or reassign it with owner (lead).',
      args: {
        id: taskId(),
        status: z.enum(UPDATE_STATUSES).optional(),
        note: z.string().optional().describe('The reason or review note the status needs.'),
        owner: z.string().optional().describe('Reassign the task to this member (lead only).'),
      },
      execute: (args, context) =>
        answer(context, async () => {
          if (args.status === undefined && args.owner === undefined) {
            throw new ToolRefusal('INVALID_INPUT', 'Give a status, an owner, or both.');
          }
          const client = await clientOf(context.sessionID);
          let task = await client.getTask(args.id);
          if (args.owner !== undefined) task = await client.reassignTask(args.id, args.owner);
          if (args.status !== undefined)
            task = await moveTask(client, args.id, args.status, args.note, task);
          return {
            output: `task ${task.id} is ${task.status}${task.owner ? `, owner ${task.owner}` : ''}`,
            metadata: { task },
          };
        }),
    }),
  };
}
