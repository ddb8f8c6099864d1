import { setTimeout as delay } from 'node:timers/promises';
import type { ToolMessage } from '@teamkit/team-core/tools';
import { resolveRunId } from '../../command-context.js';
import type { CommandHandler } from '../../command-handler.js';
import { UsageError } from '../../exit-codes.js';
import { runToolAs } from '../../tool-command.js';

const POLL_MS = 150;

/**
 * `team inbox [run] [--wait SECONDS] [--ack]`: the caller's unread mail, read with the
 * shared `read_messages` tool. With `--wait` it blocks until mail arrives, recording that
 * the member waits (so it counts as idle) and taking messages the host hands over
 * directly. With `--ack` the messages are acknowledged (the `acknowledge` tool) only after
 * they were printed and handed to the operating system, so a crash can show a message
 * twice but never acknowledge one that was not shown.
 */
export const inboxCommand: CommandHandler = async (context, [run], options) => {
  const runId = await resolveRunId(context, run);
  const waitSeconds = options.wait === undefined ? 0 : Number(options.wait);
  if (!Number.isFinite(waitSeconds) || waitSeconds < 0)
    throw new UsageError(`--wait takes a number of seconds, not ${String(options.wait)}.`);
  const { USER_PARTICIPANT } = await import('@teamkit/team-core/schema');
  const member = context.member ?? USER_PARTICIPANT;
  const read = async () => (await runToolAs(context, runId, 'read_messages', {})).output;
  const unread = await read();
  // Messages that cannot be read are shown as problems, never silently dropped.
  const problems = unread.problems ?? [];
  let messages: ToolMessage[] = unread.messages;
  const handedOver: ToolMessage[] = [];
  const confirmations: (() => Promise<void>)[] = [];
  if (messages.length === 0 && waitSeconds > 0) {
    const { markWaiting, takeHandoffs } = await import('../../process-host/index.js');
    const { toolMessage } = await import('@teamkit/team-core/tools');
    const clear = await markWaiting(runId, member, { handoff: true, store: context.store });
    const deadline = Date.now() + waitSeconds * 1000;
    let interrupted = false;
    const onSignal = () => {
      interrupted = true;
    };
    process.once('SIGINT', onSignal);
    try {
      const take = async () => {
        const taken = await takeHandoffs(runId, member, context.store);
        handedOver.push(...taken.handoffs.flatMap((handoff) => handoff.messages.map(toolMessage)));
        confirmations.push(taken.confirm);
      };
      while (Date.now() < deadline && !interrupted) {
        await take();
        messages = (await read()).messages;
        if (handedOver.length > 0) {
          // Deliveries often come in bursts: take what lands in the next moment too.
          await delay(50);
          await take();
        }
        if (messages.length > 0 || handedOver.length > 0) break;
        await delay(POLL_MS);
      }
    } finally {
      process.off('SIGINT', onSignal);
      await clear();
    }
  }
  const all = [...handedOver, ...messages];
  const { messagesText } = await import('@teamkit/team-core/tools');
  const { problemLines } = await import('../../problem-lines.js');
  const { output } = context;
  output.result(
    { runId, member, messages: all, acknowledged: options.ack === true, problems },
    () =>
      [
        all.length === 0 ? output.style('dim', 'No unread mail.') : messagesText(all),
        ...problemLines(output, problems),
      ].join('\n'),
  );
  // Shown first, acknowledged after: a process killed in between leaves the mail unread.
  await output.flush();
  // Shown now: the host may count handed-over mail as delivered.
  for (const confirm of confirmations) await confirm();
  if (options.ack === true && messages.length > 0) {
    try {
      await runToolAs(context, runId, 'acknowledge', {
        messageIds: messages.map((message) => message.messageId),
      });
    } catch (error) {
      // The result above was already printed; the failure goes to stderr only, and the
      // exit code says the mail was shown but stays unread.
      const { createOutput } = await import('../../output.js');
      const code = await createOutput({ json: false, env: context.env }).failure(error);
      process.stderr.write(
        'The messages above were shown but could not be acknowledged; they stay unread.\n',
      );
      return code;
    }
  }
  return undefined;
};
