import { resolveRunId, splitRunArgument } from '../../command-context.js';
import type { CommandHandler } from '../../command-handler.js';
import { UsageError } from '../../exit-codes.js';
import { runToolAs } from '../../tool-command.js';

/**
 * `team send [run] --to NAME|* [--kind K] [--summary S] <body>`, as the caller, through
 * the shared `send_message` tool (its input checks `--to`, `--kind` and `--summary`).
 */
export const sendCommand: CommandHandler = async (context, args, options) => {
  const { run, rest } = splitRunArgument(context, args, 1, 'team send <run> --to NAME "<body>"');
  if (rest.length !== 1) throw new UsageError('Give the message body as one argument (quote it).');
  const runId = await resolveRunId(context, run);
  const { output: result } = await runToolAs(context, runId, 'send_message', {
    to: options.to,
    message: rest[0],
    kind: options.kind,
    summary: options.summary,
  });
  const { output } = context;
  output.result({ runId, ...result }, () =>
    [
      `${output.style('green', 'sent')} ${result.messageId.slice(0, 8)} from ${result.from} to ${result.delivered.join(', ') || '-'}`,
      ...result.refused.map(
        (entry) => `  ${output.style('yellow', 'refused')} ${JSON.stringify(entry)}`,
      ),
    ].join('\n'),
  );
  return undefined;
};
