import { watch } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createMailbox, type Mailbox } from '@teamkit/team-core';
import { createFileStore, runPaths } from '@teamkit/team-core/storage';
import type { WatchSubject } from '../baselines/watch-subject.js';
import type { NotAvailable } from '../not-available.js';
import { BENCH_LOCK, ensureBenchRun } from './bench-run.js';

const SENDER = 'lead';
const RECIPIENT = 'builder';

/**
 * The part both send-based watch subjects share: a bench run in `folder`, a `send(id)`
 * that takes `performance.now()` and then calls `sendMessage` with `id` as the message
 * id, and an acknowledgement of what arrived that runs in the background (so the inbox
 * stays small without the watcher waiting for it).
 */
async function sendingSide(folder: string) {
  const runId = await ensureBenchRun(folder);
  const mailbox: Mailbox = createMailbox({
    store: createFileStore({ root: folder }),
    home: folder,
    runId,
    lock: BENCH_LOCK,
  });
  let acknowledging: Promise<unknown> = Promise.resolve();
  return {
    mailbox,
    inbox: runPaths(folder, runId).inbox(RECIPIENT),
    acknowledgeLater(ids: string[]) {
      acknowledging = acknowledging.then(() => mailbox.acknowledge(RECIPIENT, ids));
    },
    async send(id: string) {
      const started = performance.now();
      await mailbox.sendMessage({ from: SENDER, to: RECIPIENT, body: id, messageId: id });
      return started;
    },
    settled: () => acknowledging,
  };
}

/**
 * Teamkit's send -> watch latency: `watchInbox` on `builder`, the clock started right
 * before a whole durable `sendMessage` and stopped in the callback.
 */
export async function createOursWatchSubject(folder: string): Promise<WatchSubject | NotAvailable> {
  const side = await sendingSide(folder);
  let stop: (() => Promise<void>) | undefined;
  return {
    async start(onArrival) {
      stop = await side.mailbox.watchInbox(RECIPIENT, (messages) => {
        for (const message of messages) onArrival(message.messageId);
        side.acknowledgeLater(messages.map((message) => message.messageId));
      });
    },
    send: side.send,
    async close() {
      await stop?.();
      await side.settled();
    },
  };
}

/**
 * The baseline for the same sends: a bare `fs.watch` on the recipient's inbox folder,
 * reporting a message as soon as its file name appears (nothing read, nothing
 * validated). The clock starts right before the same `sendMessage` as ours, so the
 * ratio is what `watchInbox` adds to the earliest moment a watcher can know.
 */
export async function createRawWatchOnSendSubject(
  folder: string,
): Promise<WatchSubject | NotAvailable> {
  const side = await sendingSide(folder);
  let close: (() => void) | undefined;
  return {
    async start(onArrival) {
      await mkdir(side.inbox, { recursive: true });
      const seen = new Set<string>();
      const watcher = watch(side.inbox, (_event, name) => {
        const id = /^([0-9a-f-]{36})\.json$/.exec(name ?? '')?.[1];
        // The acknowledgement's rename away fires again for the same name.
        if (id === undefined || seen.has(id)) return;
        seen.add(id);
        onArrival(id);
        side.acknowledgeLater([id]);
      });
      close = () => watcher.close();
    },
    send: side.send,
    async close() {
      close?.();
      await side.settled();
    },
  };
}
