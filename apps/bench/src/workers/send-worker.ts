import type { MessageSender } from '../baselines/message-sender.js';
import { type AnySenderOptions, createSender } from '../baselines/sender-kinds.js';
import { isNotAvailable } from '../not-available.js';
import { serveWorker } from '../worker-pool.js';

/** What the parent asks for in one round: send `count` messages, numbered from `firstIndex`. */
export interface SendRound {
  firstIndex: number;
  count: number;
}

let sender: MessageSender | undefined;

serveWorker<AnySenderOptions, SendRound>({
  async init(options) {
    const created = await createSender(options);
    if (isNotAvailable(created))
      throw new Error(`${options.kind} not available: ${created.reason}`);
    sender = created;
  },
  async run({ firstIndex, count }) {
    if (sender === undefined) throw new Error('run before init');
    for (let index = firstIndex; index < firstIndex + count; index++) await sender.send(index);
    return count;
  },
  async close() {
    await sender?.close();
  },
});
