import { z } from 'zod';
import { TeamkitError } from '../errors/index.js';
import type { MemberClient } from '../runtime/member-client.js';
import { TASK_STATUSES, type Task } from '../schema/index.js';
import { submitTaskForReview } from './review-tools.js';
import { defineTeamTool } from './team-tool.js';
import {
  ToolProblemSchema,
  ToolTaskSchema,
  taskLine,
  toolProblem,
  toolTask,
  toolTaskId,
} from './tool-results.js';

const TaskOutput = z.object({ task: ToolTaskSchema });

/** The statuses `task_update` moves a task to. */
export const TASK_UPDATE_STATUSES = [
  'in_progress',
  'completed',
  'in_review',
  'approved',
  'pending',
  'blocked',
  'cancelled',
  'deleted',
] as const;
type UpdateStatus = (typeof TASK_UPDATE_STATUSES)[number];

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
      return submitTaskForReview(client, id);
    case 'approved':
      return client.approveTask(id);
    case 'pending':
      if (current.status === 'in_review' || current.status === 'completed') {
        if (note === undefined) {
          throw new TeamkitError(
            'INVALID_INPUT',
            'Requesting changes needs a note saying what to change.',
            { details: { taskId: id } },
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

/** `task_create`: a task on the run's list, optionally after others. */
export const taskCreateTool = defineTeamTool({
  name: 'task_create',
  title: 'Create a team task',
  description:
    "Create a task on the team's task list. Use blockedBy for tasks that must be done first; members claim ready tasks with {task_claim}.",
  input: z.object({
    subject: z.string().min(1).max(500).describe('A short imperative title.'),
    description: z
      .string()
      .max(20_000)
      .optional()
      .describe('What done means: acceptance criteria, context.'),
    blockedBy: z
      .array(toolTaskId())
      .max(100)
      .optional()
      .describe('Ids of tasks that must be done first.'),
    role: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .describe('The role expected to take it (recorded with the task).'),
  }),
  output: TaskOutput,
  roles: ['member', 'user'],
  readOnly: false,
  operation: () => 'create tasks',
  async handler(input, context) {
    const task = await (await context.client()).createTask({
      subject: input.subject,
      ...(input.description === undefined ? {} : { description: input.description }),
      ...(input.blockedBy === undefined || input.blockedBy.length === 0
        ? {}
        : { blockedBy: input.blockedBy }),
      ...(input.role === undefined ? {} : { metadata: { role: input.role } }),
    });
    return { task: toolTask(task) };
  },
  text({ task }) {
    const blocked = task.blockedBy.length > 0 ? ` (blocked by ${task.blockedBy.join(', ')})` : '';
    return `task ${task.id} created${blocked}`;
  },
  protocol: {
    createTask: (name) =>
      `the \`${name('task_create')}\` tool (with \`blockedBy\` for dependencies)`,
  },
});

/** `task_list`: the run's tasks, or only the ready ones. */
export const taskListTool = defineTeamTool({
  name: 'task_list',
  title: 'List team tasks',
  description:
    "List the team's tasks, optionally only those ready to claim (ready: true), by status or by owner.",
  input: z.object({
    ready: z.boolean().optional().describe('Only tasks that are pending, unowned and unblocked.'),
    status: z
      .union([z.enum(TASK_STATUSES), z.array(z.enum(TASK_STATUSES)).min(1)])
      .optional()
      .describe('Only tasks in this status (or any of these).'),
    owner: z.string().max(64).optional().describe('Only tasks of this member.'),
  }),
  output: z.object({
    tasks: z.array(ToolTaskSchema),
    /** Task files that could not be read: reported, left in place, never silently left out. */
    problems: z.array(ToolProblemSchema).optional(),
  }),
  roles: ['member', 'user', 'observer'],
  readOnly: true,
  operation: () => 'list tasks',
  async handler(input, context) {
    const view = await context.view();
    const filter = {
      ...(input.status === undefined ? {} : { status: input.status }),
      ...(input.owner === undefined ? {} : { owner: input.owner }),
    };
    const listing = await view.listTasks(input.ready ? {} : filter);
    let tasks = listing.tasks;
    if (input.ready) {
      // Ready tasks, narrowed by the same filter the list takes.
      const wanted = input.status === undefined ? undefined : [input.status].flat();
      tasks = (await view.readyTasks()).filter(
        (task) =>
          (wanted === undefined || wanted.includes(task.status)) &&
          (input.owner === undefined || task.owner === input.owner),
      );
    }
    return {
      tasks: tasks.map(toolTask),
      ...(listing.problems.length === 0 ? {} : { problems: listing.problems.map(toolProblem) }),
    };
  },
  text: ({ tasks, problems }) =>
    [
      ...(tasks.length === 0 ? ['no tasks'] : tasks.map(taskLine)),
      ...(problems ?? []).map((problem) => `unreadable: ${problem.path} (${problem.code})`),
    ].join('\n'),
  protocol: { listReadyTasks: (name) => `the \`${name('task_list')}\` tool with \`ready: true\`` },
});

/** `task_get`: one task with its description, dependencies and review notes. */
export const taskGetTool = defineTeamTool({
  name: 'task_get',
  title: 'Show a team task',
  description: 'Show one task with its description, dependencies and review notes.',
  input: z.object({ id: toolTaskId() }),
  output: TaskOutput,
  roles: ['member', 'user', 'observer'],
  readOnly: true,
  operation: (input) => `read task ${input.id}`,
  handler: async (input, context) => ({
    task: toolTask(await (await context.view()).getTask(input.id)),
  }),
  text({ task }) {
    const lines = [taskLine(task)];
    if (task.description) lines.push(task.description);
    if (task.reviewNote) lines.push(`review note: ${task.reviewNote}`);
    if (task.blockedReason) lines.push(`blocked: ${task.blockedReason}`);
    return lines.join('\n');
  },
});

/** `task_claim`: the caller takes a ready task. */
export const taskClaimTool = defineTeamTool({
  name: 'task_claim',
  title: 'Claim a team task',
  description:
    'Claim a ready task for yourself (it becomes claimed). A task then goes claimed → in_progress → completed ({task_update} with that status) → in_review ({task_submit_for_review}, which also makes the moves still missing), and the lead approves it.',
  input: z.object({ id: toolTaskId() }),
  output: TaskOutput,
  roles: ['member', 'user'],
  readOnly: false,
  operation: (input) => `claim task ${input.id}`,
  handler: async (input, context) => ({
    task: toolTask(await (await context.client()).claimTask(input.id)),
  }),
  text: ({ task }) => `task ${task.id} claimed by ${task.owner ?? 'you'}`,
  protocol: {
    claimTask: (name) =>
      `the \`${name('task_claim')}\` tool, then \`${name('task_update')}\` with status \`in_progress\``,
  },
});

/** `task_update`: moves a task through its status machine, or reassigns it (lead). */
export const taskUpdateTool = defineTeamTool({
  name: 'task_update',
  title: 'Update a team task',
  description:
    'Move a task: in_progress, completed, in_review, approved (lead), pending (release, unblock, or request changes with a note), blocked, cancelled or deleted (with a note as the reason); or reassign it with owner (lead).',
  input: z.object({
    id: toolTaskId(),
    status: z.enum(TASK_UPDATE_STATUSES).optional(),
    note: z.string().max(20_000).optional().describe('The reason or review note the status needs.'),
    owner: z.string().max(64).optional().describe('Reassign the task to this member (lead only).'),
  }),
  output: TaskOutput,
  roles: ['member', 'user'],
  readOnly: false,
  operation: (input) => `update task ${input.id}`,
  async handler(input, context) {
    if (input.status === undefined && input.owner === undefined) {
      throw new TeamkitError('INVALID_INPUT', 'Give a status, an owner, or both.', {
        details: { taskId: input.id },
      });
    }
    const client = await context.client();
    let task = await client.getTask(input.id);
    if (input.owner !== undefined) task = await client.reassignTask(input.id, input.owner);
    if (input.status !== undefined) {
      task = await moveTask(client, input.id, input.status, input.note, task);
    }
    return { task: toolTask(task) };
  },
  text: ({ task }) =>
    `task ${task.id} is ${task.status}${task.owner ? `, owner ${task.owner}` : ''}`,
  protocol: {
    completeTask: (name) => `\`${name('task_update')}\` with status \`completed\``,
    submitForReview: (name) => `\`${name('task_update')}\` with status \`in_review\``,
    approveTask: (name) => `\`${name('task_update')}\` with status \`approved\``,
    requestChanges: (name) => `\`${name('task_update')}\` with status \`pending\` and a \`note\``,
  },
});
