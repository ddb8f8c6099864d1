import { type CommandContext, resolveRunId, splitOptionalRun } from '../../command-context.js';
import type { CommandHandler } from '../../command-handler.js';
import { UsageError } from '../../exit-codes.js';
import { runToolAs } from '../../tool-command.js';

/**
 * `team permission request [run] --action A [--path P] [--reason R]`: inside a member,
 * asks the lead before acting outside its worktree; the lead is told at once.
 */
export const permissionRequestCommand: CommandHandler = async (context, args, options) => {
  const { run, rest } = await splitOptionalRun(context, args, 'team permission request <run>');
  if (rest.length > 0) throw new UsageError('team permission request takes only a run.');
  const runId = await resolveRunId(context, run);
  const { output, text } = await runToolAs(context, runId, 'permission_request', {
    action: options.action,
    path: options.path,
    reason: options.reason,
  });
  context.output.result(output, () => text);
  return undefined;
};

/**
 * `team permission list [run] [--pending]`: the run's permission requests; a member sees
 * its own, the lead and the user every one.
 */
export const permissionListCommand: CommandHandler = async (context, args, options) => {
  const { run, rest } = await splitOptionalRun(context, args, 'team permission list <run>');
  if (rest.length > 0) throw new UsageError('team permission list takes only a run.');
  const runId = await resolveRunId(context, run);
  const { output, text } = await runToolAs(context, runId, 'permission_list', {
    pending: options.pending,
  });
  context.output.result(output, () => text);
  return undefined;
};

/** A request named by its full id or a unique prefix of at least four characters. */
async function resolveRequestId(
  context: CommandContext,
  runId: string,
  given: string,
): Promise<string> {
  const { TeamkitError } = await import('@teamkit/team-core');
  const state = await (await context.openRun(runId)).state.read();
  const ids = state.permissionRequests.map((request) => request.id);
  const wanted = given.toLowerCase();
  if (ids.includes(wanted)) return wanted;
  const matches = wanted.length >= 4 ? ids.filter((id) => id.startsWith(wanted)) : [];
  if (matches.length === 1) return matches[0] as string;
  if (matches.length > 1) {
    throw new TeamkitError(
      'INVALID_INPUT',
      `"${given}" matches ${matches.length} permission requests; give more characters.`,
      { details: { runId, requestId: given, matches } },
    );
  }
  throw new TeamkitError(
    'UNKNOWN_REQUEST',
    `Run ${runId} has no permission request ${given}; list them with \`team permission list\`.`,
    { details: { runId, requestId: given } },
  );
}

function decide(decision: 'approved' | 'denied'): CommandHandler {
  return async (context, args, options) => {
    const verb = decision === 'approved' ? 'approve' : 'deny';
    const { run, rest } = await splitOptionalRun(
      context,
      args,
      `team permission ${verb} <run> <id>`,
    );
    if (rest.length !== 1 || rest[0] === undefined)
      throw new UsageError(`Name one request: team permission ${verb} [run] <id>.`);
    const runId = await resolveRunId(context, run);
    const requestId = await resolveRequestId(context, runId, rest[0]);
    const { output, text } = await runToolAs(context, runId, 'permission_decide', {
      requestId,
      decision,
      reason: options.reason,
      remember: options.remember,
    });
    context.output.result(output, () => text);
    return undefined;
  };
}

/**
 * `team permission approve [run] <id> [--remember] [--reason R]`: the lead or the user
 * approves a request (its id or a unique prefix); `--remember` keeps the path allowed.
 */
export const permissionApproveCommand = decide('approved');

/** `team permission deny [run] <id> [--reason R]`: the lead or the user denies a request. */
export const permissionDenyCommand = decide('denied');
