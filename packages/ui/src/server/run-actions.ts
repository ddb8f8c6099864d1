import { createMemberClient, TeamkitError } from '@teamkit/team-core';
import { USER_PARTICIPANT } from '@teamkit/team-core/schema';
import type { TeamkitStore } from '@teamkit/team-core/storage';
import {
  type AnyTeamTool,
  createTeamRunView,
  findTeamTool,
  runTeamTool,
  type TeamToolAnswer,
  type TeamToolContext,
  type TeamToolName,
  type TeamToolNamed,
} from '@teamkit/team-core/tools';
import { z } from 'zod';
import type { ActionName } from '../protocol.js';

/**
 * The one place the UI changes a run. Each action runs a shared team tool
 * (`@teamkit/team-core/tools`) as the user (`user`, with an inbox of its own and the
 * lead's rights), exactly as `team task …`, `team send` and `team run merge` do, so the
 * same input schemas, the same role checks and the same TeamkitErrors apply. This module
 * only maps the page's field names onto the tools' inputs; it checks nothing itself. The
 * one run-wide action that is no tool (stopping the run) is injected, and its input is
 * checked by a zod schema too.
 */

/** What an action needs besides its input. */
export interface RunActionContext {
  home: string;
  /** The store holding the home's runs (the one `team ui` selected). */
  store: TeamkitStore;
  runId: string;
  /** The environment `team ui` runs in, passed on to the runtime when a run is stopped. */
  env: NodeJS.ProcessEnv;
  /** Stops a run as `team run stop` does; injected so this module stays free of the CLI's runtime. */
  stopRun(options: {
    home: string;
    store: TeamkitStore;
    runId: string;
    env: NodeJS.ProcessEnv;
    force?: boolean;
  }): Promise<unknown>;
}

type Input = Record<string, unknown>;

/** A form's blank field (`""` or `null`) is a field left out. */
function given(input: Input): Input {
  return Object.fromEntries(
    Object.entries(input).filter(([, value]) => value !== '' && value !== null),
  );
}

/** Task ids typed into one field (`"1, #3"`) as the list the tool takes; a list passes as is. */
function idList(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  return value
    .split(/[\s,]+/)
    .map((entry) => entry.replace(/^#/, ''))
    .filter((entry) => entry !== '');
}

/** What the page calls each tool, for the tools' own messages. */
const UI_NAMES: Readonly<Record<string, string>> = {
  task_create: 'New task',
  send_message: 'Send a message',
  task_approve: 'Approve',
  task_request_changes: 'Request changes',
  task_update: 'Move task',
  permission_decide: 'Answer permission',
  shutdown_request: 'Request shutdown',
  run_merge: 'Merge',
};

/** Runs one shared tool on the run as the user. */
async function runAsUser<Name extends TeamToolName>(
  context: RunActionContext,
  name: Name,
  args: Input,
): Promise<TeamToolAnswer<Awaited<ReturnType<TeamToolNamed<Name>['handler']>>>> {
  const client = () =>
    Promise.resolve(
      createMemberClient({
        home: context.home,
        store: context.store,
        runId: context.runId,
        member: USER_PARTICIPANT,
      }),
    );
  const toolContext: TeamToolContext = {
    caller: { kind: 'user', runId: context.runId },
    client,
    view: async () =>
      createTeamRunView({ home: context.home, runId: context.runId, store: context.store }),
    toolName: (base) => UI_NAMES[base] ?? base,
  };
  const answer = await runTeamTool(findTeamTool(name) as AnyTeamTool, given(args), toolContext);
  // The tool of `name` produced it: its output has that tool's type.
  return answer as TeamToolAnswer<Awaited<ReturnType<TeamToolNamed<Name>['handler']>>>;
}

/** The input of the one action that is no tool: stopping the run. */
const StopRunInput = z.object({ force: z.boolean().optional() });

type ActionHandler = (context: RunActionContext, input: Input) => Promise<unknown>;

const HANDLERS: Record<ActionName, ActionHandler> = {
  createTask: async (context, input) =>
    (
      await runAsUser(context, 'task_create', {
        subject: input.subject,
        description: input.description,
        blockedBy: idList(input.blockedBy),
        role: input.role,
      })
    ).output,
  send: async (context, input) =>
    (
      await runAsUser(context, 'send_message', {
        to: input.to,
        message: input.body,
        kind: input.kind,
        summary: input.summary,
      })
    ).output,
  approve: async (context, input) =>
    (await runAsUser(context, 'task_approve', { id: input.taskId })).output,
  async requestChanges(context, input) {
    const { output } = await runAsUser(context, 'task_request_changes', {
      id: input.taskId,
      note: input.note,
    });
    const { task } = output;
    // The owner is told, as a lead does: nothing else wakes a member to redo its task.
    if (task.owner !== undefined) {
      await runAsUser(context, 'send_message', {
        to: task.owner,
        kind: 'task_update',
        message: `changes requested on task ${task.id}: ${task.reviewNote ?? ''}`,
        summary: `changes requested on ${task.id}`,
      });
    }
    return output;
  },
  block: async (context, input) =>
    (
      await runAsUser(context, 'task_update', {
        id: input.taskId,
        status: 'blocked',
        note: input.reason,
      })
    ).output,
  unblock: async (context, input) =>
    (await runAsUser(context, 'task_update', { id: input.taskId, status: 'pending' })).output,
  cancel: async (context, input) =>
    (
      await runAsUser(context, 'task_update', {
        id: input.taskId,
        status: 'cancelled',
        note: input.reason,
      })
    ).output,
  reassign: async (context, input) =>
    (await runAsUser(context, 'task_update', { id: input.taskId, owner: input.owner })).output,
  answerPermission: async (context, input) =>
    (
      await runAsUser(context, 'permission_decide', {
        requestId: input.requestId,
        decision: input.decision,
        reason: input.reason,
        remember: input.remember,
      })
    ).output,
  requestShutdown: async (context, input) =>
    (await runAsUser(context, 'shutdown_request', { member: input.member, reason: input.reason }))
      .output,
  merge: async (context, input) =>
    (await runAsUser(context, 'run_merge', { into: input.into, dryRun: input.dryRun })).output,
  async stopRun(context, input) {
    const parsed = StopRunInput.safeParse(given(input));
    if (!parsed.success) {
      const issues = parsed.error.issues.map(
        (issue) => `${issue.path.join('.') || 'input'}: ${issue.message}`,
      );
      throw new TeamkitError('INVALID_INPUT', `Stop the run got bad input: ${issues.join('; ')}.`, {
        details: { action: 'stopRun', issues },
      });
    }
    return context.stopRun({
      home: context.home,
      store: context.store,
      runId: context.runId,
      env: context.env,
      force: parsed.data.force === true,
    });
  },
};

/**
 * Runs one action on a run as the user. An unknown action or one the run does not offer
 * is `INVALID_INPUT`; everything else is the shared tool's own answer.
 */
export async function runAction(
  context: RunActionContext,
  action: string,
  input: unknown,
): Promise<unknown> {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    throw new TeamkitError('INVALID_INPUT', 'An action takes a JSON object.', {
      details: { field: 'body' },
    });
  const handler = Object.hasOwn(HANDLERS, action)
    ? HANDLERS[action as keyof typeof HANDLERS]
    : undefined;
  if (handler === undefined)
    throw new TeamkitError('INVALID_INPUT', `There is no action "${action}".`, {
      details: { action },
    });
  return handler(context, input as Input);
}
