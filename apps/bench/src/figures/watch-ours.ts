import { createMailbox } from '@teamkit/team-core';
import type { WatchSubject } from '../baselines/watch-subject.js';
import type { NotAvailable } from '../not-available.js';
import { BENCH_LOCK, ensureBenchRun } from './bench-run.js';

const SENDER = 'lead';
const RECIPIENT = 'builder';

/**
 * Teamkit's send -> watch latency: `start(onArrival)` calls `watchInbox` on `builder`
 * and reports each new message by the id carried in its body; `send(id)` takes
 * `performance.now()` and then calls `sendMessage`, so the figure measures the whole
 * durable send plus the notification, against a raw rename plus `fs.watch`.
 */
export async function createOursWatchSubject(folder: string): Promise<WatchSubject | NotAvailable> {
  const runId = await ensureBenchRun(folder);
  const mailbox = createMailbox({ home: folder, runId, lock: BENCH_LOCK });
  let stop: (() => Promise<void>) | undefined;
  let acknowledging: Promise<unknown> = Promise.resolve();
  return {
    async start(onArrival) {
      stop = await mailbox.watchInbox(RECIPIENT, (messages) => {
        for (const message of messages) onArrival(message.body);
        // Acknowledged so the unread listing each event triggers stays small, but not
        // awaited: the watcher would otherwise wait for the ack before the next event.
        const ids = messages.map((message) => message.messageId);
        acknowledging = acknowledging.then(() => mailbox.acknowledge(RECIPIENT, ids));
      });
    },
    async send(id) {
      const started = performance.now();
      await mailbox.sendMessage({ from: SENDER, to: RECIPIENT, body: id });
      return started;
    },
    async close() {
      await stop?.();
      await acknowledging;
    },
  };
}
