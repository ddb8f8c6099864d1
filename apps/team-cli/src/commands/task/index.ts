import { type MemberClient, type Task, type TaskStatus, TeamkitError } from '@teamkit/team-core';
import { TASK_STATUSES } from '@teamkit/team-core/schema';
import {
  type CommandContext,
  callerClient,
  resolveRunId,
  splitRunArgument,
} from '../../command-context.js';
import type { CommandHandler } from '../../command-handler.js';
import { UsageError } from '../../exit-codes.js';

async function open(
  context: CommandContext,
  args: string[],
  usage = 'team task <command> <run> <id>',
): Promise<{ runId: string; client: MemberClient; rest: string[] }> {
  const { run, rest } = splitRunArgument(context, args, 1, usage);
  const runId = await resolveRunId(context, run);
  return { runId, client: await callerClient(context, runId), rest };
}

function taskLine(context: CommandContext, task: Task): string {
  const { style } = context.output;
  const blockers =
    task.blockedBy.length > 0 ? style('dim', ` blocked by ${task.blockedBy.join(',')}`) : '';
  return `#${task.id} ${style('bold', task.status.padEnd(11))} ${task.subject}${task.owner ? style('cyan', ` (${task.owner})`) : ''}${blockers}`;
}

function printTask(context: CommandContext, runId: string, task: Task, verb?: string): void {
  context.output.result({ runId, task }, () =>
    !verb
      ? taskLine(context, task)
      : `${context.output.style('green', verb)} ${taskLine(context, task)}`,
  );
}

function oneId(rest: string[]): string {
  if (rest.length !== 1 || rest[0] === undefined) throw new UsageError('Name exactly one task id.');
  return rest[0];
}

/** A command that moves one task by id through the caller's client. */
function taskMove(
  verb: string,
  move: (client: MemberClient, id: string, options: Record<string, unknown>) => Promise<Task>,
): CommandHandler {
  return async (context, args, options) => {
    const { runId, client, rest } = await open(context, args);
    printTask(context, runId, await move(client, oneId(rest), options), verb);
    return undefined;
  };
}

/** `team task create [run] <subject> [--description] [--blocked-by 1,2] [--role R]`. */
export const taskCreateCommand: CommandHandler = async (context, args, options) => {
  const { runId, client, rest } = await open(context, args, 'team task create <run> "<subject>"');
  if (rest.length !== 1) throw new UsageError('Give the subject as one argument (quote it).');
  const blockedBy =
    typeof options.blockedBy === 'string'
      ? options.blockedBy
          .split(',')
          .map((id) => id.trim())
          .filter((id) => id !== '')
      : [];
  const task = await client.createTask({
    subject: rest[0] as string,
    ...(typeof options.description === 'string' ? { description: options.description } : {}),
    ...(blockedBy.length > 0 ? { blockedBy } : {}),
    ...(typeof options.role === 'string' ? { metadata: { role: options.role } } : {}),
  });
  printTask(context, runId, task, 'created');
  return undefined;
};

/** The statuses of `--status S,…`; one that is no task status is `INVALID_INPUT`. */
function wantedStatuses(option: string): TaskStatus[] {
  const wanted = option.split(',').map((status) => status.trim());
  const unknown = wanted.filter((status) => !(TASK_STATUSES as readonly string[]).includes(status));
  if (unknown.length > 0) {
    throw new TeamkitError(
      'INVALID_INPUT',
      `--status ${unknown.map((status) => JSON.stringify(status)).join(', ')} is no task status; use one or more (comma-separated) of ${TASK_STATUSES.join(', ')}.`,
      { details: { option: 'status', unknown, valid: [...TASK_STATUSES] } },
    );
  }
  return wanted as TaskStatus[];
}

/**
 * `team task list [run] [--ready] [--owner NAME] [--status S,…]`. Task files that cannot
 * be read are listed as problems, never silently left out.
 */
export const taskListCommand: CommandHandler = async (context, args, options) => {
  const { run, rest } = splitRunArgument(context, args, 0);
  if (rest.length > 0) throw new UsageError('team task list takes at most a run.');
  const statuses = typeof options.status === 'string' ? wantedStatuses(options.status) : undefined;
  const runId = await resolveRunId(context, run);
  const client = await callerClient(context, runId);
  const listing = await client.listTasks();
  let tasks: Task[];
  if (options.ready === true) tasks = await client.readyTasks();
  else tasks = listing.tasks;
  if (typeof options.owner === 'string')
    tasks = tasks.filter((task) => task.owner === options.owner);
  if (statuses !== undefined) tasks = tasks.filter((task) => statuses.includes(task.status));
  const { problemLines } = await import('../../problem-lines.js');
  const problems = listing.problems;
  context.output.result({ runId, tasks, problems }, () =>
    [
      ...(tasks.length === 0 ? ['No tasks.'] : tasks.map((task) => taskLine(context, task))),
      ...problemLines(context.output, problems),
    ].join('\n'),
  );
  return undefined;
};

/** `team task get [run] <id>`. */
export const taskGetCommand = taskMove('', async (client, id) => client.getTask(id));
/** `team task claim [run] <id>`: exactly one concurrent claimer wins; the rest get ALREADY_CLAIMED. */
export const taskClaimCommand = taskMove('claimed', (client, id) => client.claimTask(id));
/** `team task start [run] <id>`. */
export const taskStartCommand = taskMove('started', (client, id) => client.startTask(id));
/** `team task complete [run] <id>`. */
export const taskCompleteCommand = taskMove('completed', (client, id) => client.completeTask(id));
/** `team task review [run] <id>`: offers the task for review. */
export const taskReviewCommand = taskMove('in review', (client, id) => client.submitForReview(id));
/** `team task approve [run] <id>` (lead). */
export const taskApproveCommand = taskMove('approved', (client, id) => client.approveTask(id));
/** `team task request-changes [run] <id> --note TEXT` (lead). */
export const taskRequestChangesCommand = taskMove('changes requested', (client, id, options) =>
  client.requestChanges(id, String(options.note)),
);
/** `team task block [run] <id> --reason TEXT`. */
export const taskBlockCommand = taskMove('blocked', (client, id, options) =>
  client.blockTask(id, String(options.reason)),
);
/** `team task unblock [run] <id>`. */
export const taskUnblockCommand = taskMove('unblocked', (client, id) => client.unblockTask(id));
/** `team task release [run] <id>`: hands a claimed task back. */
export const taskReleaseCommand = taskMove('released', (client, id) => client.releaseTask(id));
/** `team task cancel [run] <id> --reason TEXT`. */
export const taskCancelCommand = taskMove('cancelled', (client, id, options) =>
  client.cancelTask(id, String(options.reason)),
);
/** `team task delete [run] <id> [--reason TEXT]`. */
export const taskDeleteCommand = taskMove('deleted', (client, id, options) =>
  client.deleteTask(id, typeof options.reason === 'string' ? options.reason : undefined),
);
