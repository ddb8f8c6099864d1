import type { McpServer } from '@modelcontextprotocol/server';
import { TeamkitError } from '@teamkit/team-core';
import { TASK_STATUSES } from '@teamkit/team-core/schema';
import {
  type AnyTeamTool,
  findTeamTool,
  type TeamToolAnswer,
  type ToolTask,
} from '@teamkit/team-core/tools';

/** The run's resources, by URI: read-only views for hosts that read resources. */
export const TEAMKIT_RESOURCES = {
  status: 'teamkit://run/status',
  board: 'teamkit://run/board',
  inbox: 'teamkit://run/inbox',
} as const;

/** Runs one shared tool for a resource read as the server's own identity; throws a refusal. */
export type ResourceToolRunner = (
  tool: AnyTeamTool,
  args: Record<string, unknown>,
) => Promise<TeamToolAnswer<Record<string, unknown>>>;

/** Which resources a server offers: the run's status and board to anyone in a run, the inbox to a member or the user. */
export interface TeamkitResourceOptions {
  /** The server's identity has a run (else there is nothing to show). */
  hasRun: boolean;
  /** The server's identity has an inbox (a member, or the user). */
  hasInbox: boolean;
  run: ResourceToolRunner;
}

function sharedTool(name: string): AnyTeamTool {
  const tool = findTeamTool(name);
  if (tool === undefined) throw new Error(`team tool ${name} is not defined`);
  return tool;
}

/** The board: the tasks in columns by status, in the status order (deleted tasks left out). */
function boardOf(tasks: readonly ToolTask[]) {
  return {
    columns: TASK_STATUSES.filter((status) => status !== 'deleted').map((status) => ({
      status,
      tasks: tasks.filter((task) => task.status === status),
    })),
  };
}

function json(uri: URL, value: unknown) {
  return {
    contents: [
      { uri: uri.href, mimeType: 'application/json', text: JSON.stringify(value, null, 2) },
    ],
  };
}

/**
 * A failed read as the SDK reports it to the client (a protocol error): the Teamkit code
 * and message, as a tool refusal says them.
 */
function readFailure(error: unknown): Error {
  if (error instanceof TeamkitError) return new Error(`${error.code}: ${error.message}`);
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * Registers the run's read-only resources on a protocol instance. Each read goes through
 * the shared tool that shows the same (`status`, `task_list`, `read_messages` without
 * acknowledging), so the roles and the identity check are the tools' own, and nothing is
 * written. Hosts do not act on resource notifications, so none are sent: a member that
 * waits uses `wait_for_mail`.
 */
export function registerTeamkitResources(server: McpServer, options: TeamkitResourceOptions): void {
  if (!options.hasRun) return;
  const read =
    (tool: string, args: Record<string, unknown>, shape: (output: never) => unknown) =>
    async (uri: URL) => {
      try {
        const answer = await options.run(sharedTool(tool), args);
        return json(uri, shape(answer.output as never));
      } catch (error) {
        throw readFailure(error);
      }
    };
  server.registerResource(
    'run-status',
    TEAMKIT_RESOURCES.status,
    {
      title: 'Team run status',
      description: 'The run: its members, what they do, their unread counts and the tasks.',
      mimeType: 'application/json',
    },
    read('status', {}, (output) => output),
  );
  server.registerResource(
    'run-board',
    TEAMKIT_RESOURCES.board,
    {
      title: 'Task board',
      description: "The run's tasks in columns by status.",
      mimeType: 'application/json',
    },
    read('task_list', {}, (output: { tasks: ToolTask[] }) => boardOf(output.tasks)),
  );
  if (!options.hasInbox) return;
  server.registerResource(
    'inbox',
    TEAMKIT_RESOURCES.inbox,
    {
      title: 'Your unread team mail',
      description:
        'Your unread team messages, oldest first. Reading it acknowledges nothing: use the acknowledge tool once you acted.',
      mimeType: 'application/json',
    },
    read('read_messages', { ack: false }, (output: { messages: unknown[] }) => ({
      messages: output.messages,
    })),
  );
}
