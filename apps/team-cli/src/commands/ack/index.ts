import { listRunIds, resolveRunId } from '../../command-context.js';
import type { CommandHandler } from '../../command-handler.js';
import { UsageError } from '../../exit-codes.js';
import { runToolAs } from '../../tool-command.js';

/**
 * `team ack [run] <messageId…>`: marks the caller's messages handled, through the shared
 * `acknowledge` tool. Each id is a full message id or a unique prefix of at least four
 * characters of an unread message (the short ids `team send` prints). Acknowledging a
 * message twice is fine (by its full id); an id that matches nothing in the caller's inbox
 * is refused with `UNKNOWN_MESSAGE` (the others are still acknowledged), never reported
 * as acknowledged. Inside a member, a leading argument that names a run of the home (its
 * id or a prefix of at least four characters) is taken as the run, so naming another run
 * is refused instead of being read as a message id.
 */
export const ackCommand: CommandHandler = async (context, args) => {
  let run: string | undefined;
  let ids = args;
  if (context.memberRun === undefined) {
    if (args.length < 2) throw new UsageError('Name the run first: team ack <run> <messageId…>.');
    [run, ...ids] = args;
  } else if (args.length > 1 && args[0] !== undefined && args[0].length >= 4) {
    const first = args[0];
    const runs = await listRunIds(context);
    if (runs.some((id) => id.startsWith(first))) [run, ...ids] = args;
  }
  if (ids.length === 0) throw new UsageError('Name at least one message id.');
  const runId = await resolveRunId(context, run);
  const { output } = await runToolAs(context, runId, 'acknowledge', { messageIds: ids });
  const { USER_PARTICIPANT } = await import('@teamkit/team-core/schema');
  const { acknowledged, alreadyAcknowledged } = output;
  context.output.result({ runId, member: context.member ?? USER_PARTICIPANT, ...output }, () =>
    [
      `Acknowledged ${acknowledged.length} message${acknowledged.length === 1 ? '' : 's'}.`,
      ...(alreadyAcknowledged.length > 0
        ? [`Already acknowledged: ${alreadyAcknowledged.join(', ')}.`]
        : []),
    ].join(' '),
  );
  return undefined;
};
