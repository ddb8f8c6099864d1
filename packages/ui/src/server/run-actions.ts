import { createMemberClient, type MemberClient, TeamkitError } from '@teamkit/team-core';
import { USER_PARTICIPANT } from '@teamkit/team-core/schema';
import type { ActionName } from '../protocol.js';

/**
 * The one place the UI changes a run. Each action is taken as the user (`user`, with an
 * inbox of its own and the lead's rights), through the user's member client exactly as
 * `team task …`, `team send`, `team run merge` and `team run stop` do, so the same rules
 * and the same TeamkitErrors apply. Input from the page is checked for shape here; ids
 * and names are checked again by the core before any becomes a path.
 */

/** What an action needs besides its input. */
export interface RunActionContext {
  home: string;
  runId: string;
  /** The environment `team ui` runs in, passed on to the runtime when a run is stopped. */
  env: NodeJS.ProcessEnv;
  /** Stops a run as `team run stop` does; injected so this module stays free of the CLI's runtime. */
  stopRun(options: {
    home: string;
    runId: string;
    env: NodeJS.ProcessEnv;
    force?: boolean;
  }): Promise<unknown>;
}

type Input = Record<string, unknown>;

function invalid(message: string, field: string): TeamkitError {
  return new TeamkitError('INVALID_INPUT', message, { details: { field } });
}

function text(input: Input, field: string, options: { max?: number; required: true }): string;
function text(
  input: Input,
  field: string,
  options?: { max?: number; required?: false },
): string | undefined;
function text(
  input: Input,
  field: string,
  options: { max?: number; required?: boolean } = {},
): string | undefined {
  const value = input[field];
  if (value === undefined || value === null || value === '') {
    if (options.required === true) throw invalid(`Fill in "${field}".`, field);
    return undefined;
  }
  if (typeof value !== 'string') throw invalid(`"${field}" must be text.`, field);
  const max = options.max ?? 20_000;
  if (value.length > max) throw invalid(`"${field}" is longer than ${max} characters.`, field);
  return value;
}

function idList(input: Input, field: string): string[] {
  const value = input[field];
  if (value === undefined || value === null || value === '') return [];
  const list = typeof value === 'string' ? value.split(/[\s,]+/) : value;
  if (!Array.isArray(list) || list.some((entry) => typeof entry !== 'string'))
    throw invalid(`"${field}" must be a list of task ids.`, field);
  return (list as string[]).map((entry) => entry.trim().replace(/^#/, '')).filter(Boolean);
}

async function userClient(context: RunActionContext): Promise<MemberClient> {
  return createMemberClient({ home: context.home, runId: context.runId, member: USER_PARTICIPANT });
}

type ActionHandler = (context: RunActionContext, input: Input) => Promise<unknown>;

const SEND_KINDS = ['message', 'announcement', 'task_update'] as const;

const HANDLERS: Record<ActionName, ActionHandler> = {
  async createTask(context, input) {
    const role = text(input, 'role', { max: 64 });
    const description = text(input, 'description');
    const blockedBy = idList(input, 'blockedBy');
    return (await userClient(context)).createTask({
      subject: text(input, 'subject', { max: 500, required: true }),
      ...(description === undefined ? {} : { description }),
      ...(blockedBy.length > 0 ? { blockedBy } : {}),
      ...(role === undefined ? {} : { metadata: { role } }),
    });
  },
  async send(context, input) {
    const kind = text(input, 'kind', { max: 32 }) ?? 'message';
    if (!(SEND_KINDS as readonly string[]).includes(kind))
      throw invalid(`A message from the board is one of: ${SEND_KINDS.join(', ')}.`, 'kind');
    const summary = text(input, 'summary', { max: 200 });
    return (await userClient(context)).send({
      to: text(input, 'to', { max: 200, required: true }),
      body: text(input, 'body', { required: true }),
      kind: kind as (typeof SEND_KINDS)[number],
      ...(summary === undefined ? {} : { summary }),
    });
  },
  async approve(context, input) {
    return (await userClient(context)).approveTask(text(input, 'taskId', { required: true }));
  },
  async requestChanges(context, input) {
    const client = await userClient(context);
    const id = text(input, 'taskId', { required: true });
    const note = text(input, 'note', { required: true });
    const task = await client.requestChanges(id, note);
    // The owner is told, as a lead does: nothing else wakes a member to redo its task.
    if (task.owner !== undefined) {
      await client.send({
        to: task.owner,
        kind: 'task_update',
        body: `changes requested on task ${task.id}: ${note}`,
        summary: `changes requested on ${task.id}`,
      });
    }
    return task;
  },
  async block(context, input) {
    return (await userClient(context)).blockTask(
      text(input, 'taskId', { required: true }),
      text(input, 'reason', { max: 2_000, required: true }),
    );
  },
  async unblock(context, input) {
    return (await userClient(context)).unblockTask(text(input, 'taskId', { required: true }));
  },
  async cancel(context, input) {
    return (await userClient(context)).cancelTask(
      text(input, 'taskId', { required: true }),
      text(input, 'reason', { max: 2_000, required: true }),
    );
  },
  async reassign(context, input) {
    return (await userClient(context)).reassignTask(
      text(input, 'taskId', { required: true }),
      text(input, 'owner', { max: 200, required: true }),
    );
  },
  async answerPermission(context, input) {
    const decision = text(input, 'decision', { required: true });
    if (decision !== 'approved' && decision !== 'denied')
      throw invalid('A permission request is answered "approved" or "denied".', 'decision');
    const client = await userClient(context);
    const reason = text(input, 'reason', { max: 2_000 });
    return client.decidePermission(text(input, 'requestId', { max: 100, required: true }), {
      decision,
      ...(reason === undefined ? {} : { reason }),
      remember: input.remember === true,
    });
  },
  async requestShutdown(context, input) {
    const reason = text(input, 'reason', { max: 2_000 });
    await (await userClient(context)).requestShutdown(
      text(input, 'member', { max: 200, required: true }),
      reason,
    );
    return undefined;
  },
  async merge(context, input) {
    const into = text(input, 'into', { max: 255 });
    return (await userClient(context)).mergeWork({
      ...(into === undefined ? {} : { into }),
      dryRun: input.dryRun === true,
    });
  },
  async stopRun(context, input) {
    return context.stopRun({
      home: context.home,
      runId: context.runId,
      env: context.env,
      force: input.force === true,
    });
  },
};

/**
 * Runs one action on a run as the user. An unknown action or one the run does not offer
 * is `INVALID_INPUT`; everything else is the core's own answer.
 */
export async function runAction(
  context: RunActionContext,
  action: string,
  input: unknown,
): Promise<unknown> {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    throw invalid('An action takes a JSON object.', 'body');
  const handler = Object.hasOwn(HANDLERS, action)
    ? HANDLERS[action as keyof typeof HANDLERS]
    : undefined;
  if (handler === undefined)
    throw new TeamkitError('INVALID_INPUT', `There is no action "${action}".`, {
      details: { action },
    });
  return handler(context, input as Input);
}
