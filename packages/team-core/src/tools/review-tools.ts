import { z } from 'zod';
import type { MemberClient } from '../runtime/member-client.js';
import type { Task } from '../schema/index.js';
import { defineTeamTool } from './team-tool.js';
import { ToolTaskSchema, toolTask, toolTaskId } from './tool-results.js';

const TaskOutput = z.object({ task: ToolTaskSchema });

/**
 * Offers a task for review from wherever its owner's work stands, as one call means it:
 * a claimed task is started and an in-progress one completed first. Each step is a legal
 * move of the status machine, made and recorded (`task.status`) on its own; a step the
 * caller may not make is refused with its typed error, leaving the moves before it.
 */
export async function submitTaskForReview(client: MemberClient, id: string): Promise<Task> {
  let task = await client.getTask(id);
  if (task.status === 'claimed') task = await client.startTask(id);
  if (task.status === 'in_progress') task = await client.completeTask(id);
  return client.submitForReview(id);
}

/** `task_submit_for_review`: the owner offers finished work for review. */
export const taskSubmitForReviewTool = defineTeamTool({
  name: 'task_submit_for_review',
  title: 'Submit a task for review',
  description:
    'Offer a task you own for review once its work is done: it moves to in_review, first through in_progress and completed when it is still claimed or in progress (each move recorded). The lead then approves it or asks for changes.',
  input: z.object({ id: toolTaskId() }),
  output: TaskOutput,
  roles: ['member', 'user'],
  readOnly: false,
  operation: (input) => `submit task ${input.id} for review`,
  handler: async (input, context) => ({
    task: toolTask(await submitTaskForReview(await context.client(), input.id)),
  }),
  text: ({ task }) => `task ${task.id} is ${task.status}, waiting for review`,
  protocol: {
    submitForReview: (name) => `the \`${name('task_submit_for_review')}\` tool`,
  },
});

/** `task_approve`: the lead accepts reviewed work. */
export const taskApproveTool = defineTeamTool({
  name: 'task_approve',
  title: 'Approve a reviewed task',
  description: 'Lead only: approve a task in review (or completed), closing it.',
  input: z.object({ id: toolTaskId() }),
  output: TaskOutput,
  roles: ['lead', 'user'],
  readOnly: false,
  operation: (input) => `approve task ${input.id}`,
  handler: async (input, context) => ({
    task: toolTask(await (await context.client()).approveTask(input.id)),
  }),
  text: ({ task }) => `task ${task.id} approved`,
  protocol: { approveTask: (name) => `the \`${name('task_approve')}\` tool` },
});

/** `task_request_changes`: the lead sends reviewed work back with a note. */
export const taskRequestChangesTool = defineTeamTool({
  name: 'task_request_changes',
  title: 'Request changes to a task',
  description:
    'Lead only: send a task in review back to its owner (it returns to pending, marked needs-fix) with a note saying what to change.',
  input: z.object({
    id: toolTaskId(),
    note: z.string().min(1).max(20_000).describe('What to change.'),
  }),
  output: TaskOutput,
  roles: ['lead', 'user'],
  readOnly: false,
  operation: (input) => `request changes to task ${input.id}`,
  handler: async (input, context) => ({
    task: toolTask(await (await context.client()).requestChanges(input.id, input.note)),
  }),
  text: ({ task }) =>
    `task ${task.id} sent back to ${task.owner ?? 'its owner'}: ${task.reviewNote ?? ''}`,
  protocol: {
    requestChanges: (name) => `the \`${name('task_request_changes')}\` tool with a \`note\``,
  },
});
