import { callerClient, listRunIds, resolveRunId } from '../../command-context.js';
import type { CommandHandler } from '../../command-handler.js';
import { UsageError } from '../../exit-codes.js';

/**
 * `team ack [run] <messageId…>`: marks the caller's messages handled. Acknowledging a
 * message twice is fine; an id that is not in the caller's inbox at all is refused with
 * `UNKNOWN_MESSAGE` (the others are still acknowledged). Inside a member, a leading
 * argument that names a run of the home (its id or a prefix of at least four characters)
 * is taken as the run, so naming another run is refused instead of being read as a
 * message id.
 */
export const ackCommand: CommandHandler = async (context, args) => {
  let run: string | undefined;
  let ids = args;
  if (context.memberRun === undefined) [run, ...ids] = args;
  else if (args.length > 1 && args[0] !== undefined && args[0].length >= 4) {
    const first = args[0];
    const runs = await listRunIds(context.home);
    if (runs.some((id) => id.startsWith(first))) [run, ...ids] = args;
  }
  if (ids.length === 0) throw new UsageError('Name at least one message id.');
  const runId = await resolveRunId(context, run);
  const client = await callerClient(context, runId);
  const outcome = await client.mailbox.acknowledge(client.member, ids);
  if (outcome.missing.length > 0) {
    const { TeamkitError } = await import('@teamkit/team-core');
    const handled = [...outcome.acknowledged, ...outcome.alreadyProcessed];
    throw new TeamkitError(
      'UNKNOWN_MESSAGE',
      `${client.member}'s inbox holds no message ${outcome.missing.join(', ')}${handled.length > 0 ? `; acknowledged ${handled.join(', ')}` : ''}. Check the ids with \`team inbox\`.`,
      { details: { runId, member: client.member, ...outcome } },
    );
  }
  context.output.result(
    { runId, member: client.member, acknowledged: ids },
    () => `Acknowledged ${ids.length} message${ids.length === 1 ? '' : 's'}.`,
  );
  return undefined;
};
