import { createMailbox } from '@teamkit/team-core';
import { createFileStore } from '@teamkit/team-core/storage';
import type { MessageSender, SenderOptions } from '../baselines/message-sender.js';
import { messageText } from '../message-body.js';
import type { NotAvailable } from '../not-available.js';
import { BENCH_LOCK, ensureBenchRun } from './bench-run.js';

/**
 * Teamkit's durable send, as the send figures measure it: one `sendMessage` per call,
 * ~500-byte text, from `options.sender` to `options.recipient`, with `options.folder`
 * as the Teamkit home of a bench run. Used both in-process (1 writer) and inside each
 * writer process (4 writers); the run is created once and reused by every process.
 */
export async function createOursSender(
  options: SenderOptions,
): Promise<MessageSender | NotAvailable> {
  const runId = await ensureBenchRun(options.folder);
  const mailbox = createMailbox({
    store: createFileStore({ root: options.folder }),
    home: options.folder,
    runId,
    lock: BENCH_LOCK,
  });
  return {
    async send(index) {
      await mailbox.sendMessage({
        from: options.sender,
        to: options.recipient,
        body: messageText(options.sender, index),
      });
    },
    async close() {},
  };
}
