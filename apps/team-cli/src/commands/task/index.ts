import { type TaskStatus, TeamkitError } from '@teamkit/team-core';
import { TASK_STATUSES } from '@teamkit/team-core/schema';
import type { ToolTask } from '@teamkit/team-core/tools';
import { type CommandContext, resolveRunId, splitRunArgument } from '../../command-context.js';
import type { CommandHandler } from '../../command-handler.js';
import { UsageError } from '../../exit-codes.js';
import { runToolAs } from '../../tool-command.js';

// Every task command runs a shared task tool as the caller; the tool's input checks the
// id and the options, and its roles say who may do it.

function taskLine(context: CommandContext, task: ToolTask): string {
  const { style } = context.output;
  const blockers =
    task.blockedBy.length > 0 ? style('dim', ` blocked by ${task.blockedBy.join(',')}`) : '';
  return `#${task.id} ${style('bold', task.status.padEnd(11))} ${task.subject}${task.owner ? style('cyan', ` (${task.owner})`) : ''}${blockers}`;
}

function printTask(context: CommandContext, runId: string, task: ToolTask, verb: string): void {
  context.output.result({ runId, task }, () =>
    verb === ''
      ? taskLine(context, task)
      : `${context.output.style('green', verb)} ${taskLine(context, task)}`,
  );
}

/** A comma-separated option (`--blocked-by 1,2`) as the list a tool takes. */
function commaList(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

/** The tools that answer with one task. */
type OneTaskTool =
  | 'task_get'
  | 'task_claim'
  | 'task_update'
  | 'task_submit_for_review'
  | 'task_approve'
  | 'task_request_changes';

/** A command that runs one task tool on one task id. */
function taskMove(
  verb: string,
  tool: OneTaskTool,
  args: (options: Record<string, unknown>) => Record<string, unknown> = () => ({}),
): CommandHandler {
  return async (context, given, options) => {
    const { run, rest } = splitRunArgument(context, given, 1, 'team task <command> <run> <id>');
    const runId = await resolveRunId(context, run);
    if (rest.length !== 1 || rest[0] === undefined)
      throw new UsageError('Name exactly one task id.');
    const { output } = await runToolAs(context, runId, tool, { id: rest[0], ...args(options) });
    printTask(context, runId, output.task, verb);
    return undefined;
  };
}

/** `team task create [run] <subject> [--description] [--blocked-by 1,2] [--role R]`. */
export const taskCreateCommand: CommandHandler = async (context, args, options) => {
  const { run, rest } = splitRunArgument(context, args, 1, 'team task create <run> "<subject>"');
  const runId = await resolveRunId(context, run);
  if (rest.length !== 1) throw new UsageError('Give the subject as one argument (quote it).');
  const { output } = await runToolAs(context, runId, 'task_create', {
    subject: rest[0],
    description: options.description,
    blockedBy: commaList(options.blockedBy),
    role: options.role,
  });
  printTask(context, runId, output.task, 'created');
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
  const { output } = await runToolAs(context, runId, 'task_list', {
    ready: options.ready,
    owner: options.owner,
    status: statuses,
  });
  const { problemLines } = await import('../../problem-lines.js');
  const problems = output.problems ?? [];
  context.output.result({ runId, tasks: output.tasks, problems }, () =>
    [
      ...(output.tasks.length === 0
        ? ['No tasks.']
        : output.tasks.map((task) => taskLine(context, task))),
      ...problemLines(context.output, problems),
    ].join('\n'),
  );
  return undefined;
};

/** `team task get [run] <id>`. */
export const taskGetCommand = taskMove('', 'task_get');
/** `team task claim [run] <id>`: exactly one concurrent claimer wins; the rest get ALREADY_CLAIMED. */
export const taskClaimCommand = taskMove('claimed', 'task_claim');
/** `team task start [run] <id>`. */
export const taskStartCommand = taskMove('started', 'task_update', () => ({
  status: 'in_progress',
}));
/** `team task complete [run] <id>`. */
export const taskCompleteCommand = taskMove('completed', 'task_update', () => ({
  status: 'completed',
}));
/** `team task review [run] <id>`: offers the task for review. */
export const taskReviewCommand = taskMove('in review', 'task_submit_for_review');
/** `team task approve [run] <id>` (lead). */
export const taskApproveCommand = taskMove('approved', 'task_approve');
/** `team task request-changes [run] <id> --note TEXT` (lead). */
export const taskRequestChangesCommand = taskMove(
  'changes requested',
  'task_request_changes',
  (options) => ({ note: options.note }),
);
/** `team task block [run] <id> --reason TEXT`. */
export const taskBlockCommand = taskMove('blocked', 'task_update', (options) => ({
  status: 'blocked',
  note: options.reason,
}));
/** `team task unblock [run] <id>`: a blocked task back to pending. */
export const taskUnblockCommand = taskMove('unblocked', 'task_update', () => ({
  status: 'pending',
}));
/** `team task release [run] <id>`: hands a claimed task back (to pending). */
export const taskReleaseCommand = taskMove('released', 'task_update', () => ({
  status: 'pending',
}));
/** `team task cancel [run] <id> --reason TEXT`. */
export const taskCancelCommand = taskMove('cancelled', 'task_update', (options) => ({
  status: 'cancelled',
  note: options.reason,
}));
/** `team task delete [run] <id> [--reason TEXT]`. */
export const taskDeleteCommand = taskMove('deleted', 'task_update', (options) => ({
  status: 'deleted',
  note: options.reason,
}));
