import { randomUUID } from 'node:crypto';
import { createRawWatchSubject, type WatchSubject } from '../baselines/watch-subject.js';
import type { Contender, FigureDefinition, RoundSettings } from '../figure.js';
import { isNotAvailable } from '../not-available.js';
import { percentile } from '../statistics.js';
import { createOursWatchSubject, createRawWatchOnSendSubject } from './watch-ours.js';

/** Sizes of the watch figure. */
export interface WatchSettings extends RoundSettings {
  eventsPerRound: number;
  /** How long one event may take before the benchmark counts as broken. */
  eventTimeoutMs: number;
}

function watchContender(
  key: string,
  label: string,
  subject: WatchSubject,
  settings: WatchSettings,
): Contender {
  const waiting = new Map<string, (arrivedAt: number) => void>();
  return {
    key,
    label,
    unit: 'ms p99',
    better: 'lower',
    async setup() {
      await subject.start((id) => {
        const arrivedAt = performance.now();
        const resolve = waiting.get(id);
        if (resolve === undefined) return;
        waiting.delete(id);
        resolve(arrivedAt);
      });
    },
    async runRound() {
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
      await subject.close();
    },
  };
}

/** Latency from a send to the watcher's callback, p50 and p99. */
export const watchFigure: FigureDefinition<WatchSettings> = {
  id: 'watch',
  title: 'watch latency, send -> callback',
  headline: 'watch p99',
  settings: (quick) =>
    quick
      ? { warmup: 1, rounds: 3, eventsPerRound: 50, eventTimeoutMs: 5_000 }
      : { warmup: 1, rounds: 5, eventsPerRound: 200, eventTimeoutMs: 5_000 },
  async ours({ settings, folder }) {
    const subject = await createOursWatchSubject(await folder('ours'));
    if (isNotAvailable(subject)) return subject;
    return [watchContender('ours', 'send -> watchInbox', subject, settings)];
  },
  async baselines({ settings, folder }) {
    const onSend = await createRawWatchOnSendSubject(await folder('fs-watch-send'));
    if (isNotAvailable(onSend)) throw new Error(`watch baseline: ${onSend.reason}`);
    return [
      watchContender('fs-watch-send', 'raw fs.watch on the inbox (same send)', onSend, settings),
      watchContender(
        'fs-watch',
        'bare rename + fs.watch (no send)',
        createRawWatchSubject(await folder('fs-watch')),
        settings,
      ),
    ];
  },
  ratios: [
    {
      label: 'raw fs.watch p99 (same send)',
      numerator: 'ours',
      denominator: 'fs-watch-send',
      target: { op: '<=', value: 2 },
    },
    {
      label: 'raw fs.watch p50 (same send)',
      numerator: 'ours#p50',
      denominator: 'fs-watch-send#p50',
    },
    { label: 'bare rename + fs.watch p99', numerator: 'ours', denominator: 'fs-watch' },
  ],
};
