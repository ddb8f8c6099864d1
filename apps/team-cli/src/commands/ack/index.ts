import { callerClient, listRunIds, resolveRunId } from '../../command-context.js';
import type { CommandHandler } from '../../command-handler.js';
import { UsageError } from '../../exit-codes.js';

const FULL_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const PREFIX = /^[0-9a-f][0-9a-f-]{3,34}$/;

/**
 * `team ack [run] <messageId…>`: marks the caller's messages handled. Each id is a full
 * message id or a unique prefix of at least four characters of an unread message (the
 * short ids `team send` prints). Acknowledging a message twice is fine (by its full id);
 * an id that matches nothing in the caller's inbox is reported missing and refused with
 * `UNKNOWN_MESSAGE` (the others are still acknowledged), never reported as acknowledged.
 * Inside a member, a leading argument that names a run of the home (its id or a prefix of
 * at least four characters) is taken as the run, so naming another run is refused instead
 * of being read as a message id.
 */
export const ackCommand: CommandHandler = async (context, args) => {
  let run: string | undefined;
  let ids = args;
  if (context.memberRun === undefined) {
    if (args.length < 2) throw new UsageError('Name the run first: team ack <run> <messageId…>.');
    [run, ...ids] = args;
  } else if (args.length > 1 && args[0] !== undefined && args[0].length >= 4) {
    const first = args[0];
    const runs = await listRunIds(context.home);
    if (runs.some((id) => id.startsWith(first))) [run, ...ids] = args;
  }
  if (ids.length === 0) throw new UsageError('Name at least one message id.');
  const runId = await resolveRunId(context, run);
  const client = await callerClient(context, runId);
  const unread = (await client.mailbox.listUnread(client.member)).messages.map(
    (message) => message.messageId,
  );
  const { TeamkitError } = await import('@teamkit/team-core');
  const resolved: string[] = [];
  const missing: string[] = [];
  for (const given of ids) {
    const id = given.toLowerCase();
    if (FULL_ID.test(id)) {
      resolved.push(id);
      continue;
    }
    const matches = PREFIX.test(id) ? unread.filter((candidate) => candidate.startsWith(id)) : [];
    if (matches.length > 1) {
      throw new TeamkitError(
        'INVALID_INPUT',
        `"${given}" matches ${matches.length} unread messages (${matches.join(', ')}); give more characters.`,
        { details: { runId, member: client.member, id: given, matches } },
      );
    }
    if (matches.length === 1) resolved.push(matches[0] as string);
    else missing.push(given);
  }
  const outcome =
    resolved.length === 0
      ? { acknowledged: [], alreadyProcessed: [], missing: [] }
      : await client.mailbox.acknowledge(client.member, [...new Set(resolved)]);
  missing.push(...outcome.missing);
  if (missing.length > 0) {
    const handled = [...outcome.acknowledged, ...outcome.alreadyProcessed];
    throw new TeamkitError(
      'UNKNOWN_MESSAGE',
      `${client.member}'s inbox holds no unread message ${missing.join(', ')}${handled.length > 0 ? `; acknowledged ${handled.join(', ')}` : ''}. Check the ids with \`team inbox\` (a short id must match exactly one unread message).`,
      {
        details: {
          runId,
          member: client.member,
          acknowledged: outcome.acknowledged,
          alreadyAcknowledged: outcome.alreadyProcessed,
          missing,
        },
      },
    );
  }
  context.output.result(
    {
      runId,
      member: client.member,
      acknowledged: outcome.acknowledged,
      alreadyAcknowledged: outcome.alreadyProcessed,
    },
    () =>
      [
        `Acknowledged ${outcome.acknowledged.length} message${outcome.acknowledged.length === 1 ? '' : 's'}.`,
        ...(outcome.alreadyProcessed.length > 0
          ? [`Already acknowledged: ${outcome.alreadyProcessed.join(', ')}.`]
          : []),
      ].join(' '),
  );
  return undefined;
};
