import { resolveRunId, splitOptionalRun } from '../../command-context.js';
import type { CommandHandler } from '../../command-handler.js';
import { UsageError } from '../../exit-codes.js';
import { runToolAs } from '../../tool-command.js';

/**
 * `team shutdown request [run] [member|*] [--reason R]`: the lead or the user asks a
 * member (or with `*`, the default, every member still working) to finish and shut down.
 * Only the lead and the user may (the `shutdown_request` tool's roles): another member gets
 * `NOT_LEAD`.
 */
export const shutdownRequestCommand: CommandHandler = async (context, args, options) => {
  const { run, rest } = await splitOptionalRun(
    context,
    args,
    'team shutdown request <run> [member|*]',
  );
  if (rest.length > 1) throw new UsageError('Name one member, or * for everyone.');
  const runId = await resolveRunId(context, run);
  const member = rest[0] ?? '*';
  const { output, text } = await runToolAs(context, runId, 'shutdown_request', {
    member,
    reason: options.reason,
  });
  context.output.result(output, () => text);
  return undefined;
};

async function answer(
  context: Parameters<CommandHandler>[0],
  args: string[],
  tool: 'approve_shutdown' | 'reject_shutdown',
  extra: Record<string, unknown>,
): Promise<undefined> {
  const verb = tool === 'approve_shutdown' ? 'approve' : 'reject';
  if (context.member === undefined) {
    const { TeamkitError } = await import('@teamkit/team-core');
    throw new TeamkitError(
      'PERMISSION_DENIED',
      `The user has no shutdown request to answer: \`team shutdown ${verb}\` answers a member's own request, run inside that member.`,
      { details: { operation: tool } },
    );
  }
  const { run, rest } = await splitOptionalRun(context, args, `team shutdown ${verb} [id]`);
  if (rest.length > 1) throw new UsageError('Name at most one shutdown request id.');
  const runId = await resolveRunId(context, run);
  const { output, text } = await runToolAs(context, runId, tool, {
    ...extra,
    ...(rest[0] === undefined ? {} : { requestId: rest[0] }),
  });
  context.output.result(output, () => text);
  return undefined;
}

/**
 * `team shutdown approve [id]`: inside a member, approves its own open shutdown request
 * (the id, from the request's message, is optional: a member has at most one); its host
 * then stops it.
 */
export const shutdownApproveCommand: CommandHandler = (context, args) =>
  answer(context, args, 'approve_shutdown', {});

/** `team shutdown reject [id] --reason R`: inside a member, declines its open request. */
export const shutdownRejectCommand: CommandHandler = (context, args, options) =>
  answer(context, args, 'reject_shutdown', { reason: options.reason });
