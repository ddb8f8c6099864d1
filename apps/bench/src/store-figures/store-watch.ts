import { randomUUID } from 'node:crypto';
import type { WatchSubject } from '../baselines/watch-subject.js';
import type { Contender, FigureDefinition, RoundSettings } from '../figure.js';
import { messageText } from '../message-body.js';
import { isNotAvailable } from '../not-available.js';
import { percentile } from '../statistics.js';
import { openTargetStore, type StoreTarget, startFigureNatsServer } from './store-targets.js';

/** Sizes of the store watch figure. */
export interface StoreWatchSettings extends RoundSettings {
  eventsPerRound: number;
  eventTimeoutMs: number;
}

const INBOX = 'runtime/bench/inboxes/builder';

/**
 * `addEntry` in one store handle, `watchEntries` in another (as a sender and a recipient
 * would have), the clock from just before the add to the watch callback naming the id.
 */
async function entryWatchSubject(target: StoreTarget): Promise<WatchSubject> {
  const sender = await openTargetStore(target);
  const recipient = await openTargetStore(target);
  let stop: (() => Promise<void>) | undefined;
  return {
    async start(onArrival) {
      stop = await recipient.watchEntries(INBOX, (ids) => {
        if (ids !== 'all') for (const id of ids) onArrival(id);
      });
    },
    async send(id) {
      const started = performance.now();
      await sender.addEntry(INBOX, id, messageText('lead', 0));
      return started;
    },
    async close() {
      await stop?.();
      await Promise.all([sender.close(), recipient.close()]);
    },
  };
}

function latencyContender(
  key: string,
  label: string,
  target: StoreTarget,
  settings: StoreWatchSettings,
  onClose: () => Promise<void> = async () => {},
): Contender {
  const waiting = new Map<string, (arrivedAt: number) => void>();
  let subject: WatchSubject | undefined;
  return {
    key,
    label,
    unit: 'ms p99',
    better: 'lower',
    async setup() {
      subject = await entryWatchSubject(target);
      await subject.start((id) => {
        const arrivedAt = performance.now();
        waiting.get(id)?.(arrivedAt);
        waiting.delete(id);
      });
    },
    async runRound() {
      if (subject === undefined) throw new Error('setup did not run');
      const latencies: number[] = [];
      for (let event = 0; event < settings.eventsPerRound; event++) {
        const id = randomUUID();
        let timer: NodeJS.Timeout | undefined;
        const arrival = new Promise<number>((resolve, reject) => {
          waiting.set(id, resolve);
          timer = setTimeout(() => {
            waiting.delete(id);
            reject(new Error(`${label}: no callback within ${settings.eventTimeoutMs} ms`));
          }, settings.eventTimeoutMs);
        });
        try {
          const startedAt = await subject.send(id);
          latencies.push((await arrival) - startedAt);
        } finally {
          clearTimeout(timer);
        }
      }
      return { value: percentile(latencies, 99), extra: { p50: percentile(latencies, 50) } };
    },
    async teardown() {
      await subject?.close();
      await onClose();
    },
  };
}

/** From `addEntry` to another handle's `watchEntries` callback: NATS store vs file store. */
export const storeWatchFigure: FigureDefinition<StoreWatchSettings> = {
  id: 'store-watch',
  title: 'store watch latency, addEntry -> watchEntries: NATS store vs file store',
  headline: 'NATS watch p99',
  settings: (quick) =>
    quick
      ? { warmup: 1, rounds: 3, eventsPerRound: 40, eventTimeoutMs: 10_000 }
      : { warmup: 1, rounds: 5, eventsPerRound: 200, eventTimeoutMs: 10_000 },
  async ours({ settings }) {
    const server = await startFigureNatsServer();
    if (isNotAvailable(server)) return server;
    return [
      latencyContender(
        'ours-nats',
        'NATS store addEntry -> watchEntries',
        server.target(`bench-watch-${process.pid}`),
        settings,
        () => server.close(),
      ),
    ];
  },
  async baselines({ settings, folder }) {
    return [
      latencyContender(
        'file-store',
        'file store addEntry -> watchEntries',
        { kind: 'file', root: await folder('file-store') },
        settings,
      ),
    ];
  },
  ratios: [
    { label: 'file store p99', numerator: 'ours-nats', denominator: 'file-store' },
    { label: 'file store p50', numerator: 'ours-nats#p50', denominator: 'file-store#p50' },
  ],
};
