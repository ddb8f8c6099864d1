import { callerClient, resolveRunId, splitRunArgument } from '../../command-context.js';
import type { CommandHandler } from '../../command-handler.js';
import { UsageError } from '../../exit-codes.js';

/** `team send [run] --to NAME|* [--kind K] [--summary S] <body>`, as the caller. */
export const sendCommand: CommandHandler = async (context, args, options) => {
  const { run, rest } = splitRunArgument(context, args, 1, 'team send <run> --to NAME "<body>"');
  if (rest.length !== 1) throw new UsageError('Give the message body as one argument (quote it).');
  const runId = await resolveRunId(context, run);
  const client = await callerClient(context, runId);
  const kind = options.kind as 'message' | 'announcement' | 'task_update' | undefined;
  const result = await client.send({
    to: String(options.to),
    body: rest[0] as string,
    ...(kind === undefined ? {} : { kind }),
    ...(typeof options.summary === 'string' ? { summary: options.summary } : {}),
  });
  const { output } = context;
  output.result({ runId, from: client.member, ...result }, () =>
    [
      `${output.style('green', 'sent')} ${result.messageId.slice(0, 8)} from ${client.member} to ${result.delivered.join(', ') || '-'}`,
      ...result.refused.map(
        (entry) => `  ${output.style('yellow', 'refused')} ${JSON.stringify(entry)}`,
      ),
    ].join('\n'),
  );
  return undefined;
};
