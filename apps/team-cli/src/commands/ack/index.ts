import { callerClient, resolveRunId } from '../../command-context.js';
import type { CommandHandler } from '../../command-handler.js';
import { UsageError } from '../../exit-codes.js';

/** `team ack [run] <messageId…>`: marks the caller's messages handled (idempotent). */
export const ackCommand: CommandHandler = async (context, args) => {
  let run: string | undefined;
  let ids = args;
  if (context.memberRun === undefined) [run, ...ids] = args;
  else if (
    args.length > 1 &&
    args[0] !== undefined &&
    args[0].length >= 4 &&
    context.memberRun.startsWith(args[0])
  )
    [run, ...ids] = args;
  if (ids.length === 0) throw new UsageError('Name at least one message id.');
  const runId = await resolveRunId(context, run);
  const client = await callerClient(context, runId);
  await client.acknowledge(ids);
  context.output.result(
    { runId, member: client.member, acknowledged: ids },
    () => `Acknowledged ${ids.length} message${ids.length === 1 ? '' : 's'}.`,
  );
  return undefined;
};
