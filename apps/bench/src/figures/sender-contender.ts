import type { MessageSender } from '../baselines/message-sender.js';
import type { Contender } from '../figure.js';

/** Options for {@link senderContender}. */
export interface SenderContenderOptions {
  key: string;
  label: string;
  sender: MessageSender;
  /** Messages per round. */
  count: number;
  /** Untimed preparation before each round (e.g. re-seeding an inbox). */
  beforeRound?(round: number): Promise<void>;
  /** Untimed check after each round that all `sent` messages arrived. */
  afterRound?(sent: number): Promise<void>;
}

/** A contender that times `count` sequential sends per round and reports msgs/s. */
export function senderContender(options: SenderContenderOptions): Contender {
  return {
    key: options.key,
    label: options.label,
    unit: 'msg/s',
    better: 'higher',
    async runRound(round) {
      await options.beforeRound?.(round);
      const firstIndex = round * options.count;
      const started = performance.now();
      for (let index = firstIndex; index < firstIndex + options.count; index++) {
        await options.sender.send(index);
      }
      const value = options.count / ((performance.now() - started) / 1000);
      await options.afterRound?.(options.count);
      return { value };
    },
    async teardown() {
      await options.sender.close();
    },
  };
}
