import { createRawPollSubject, type PollSubject } from '../baselines/poll-subject.js';
import type { Contender, FigureDefinition, RoundSettings } from '../figure.js';
import { isNotAvailable } from '../not-available.js';
import { createOursPollSubject } from './poll-ours.js';
import { existingLabel } from './send.js';

/** Sizes of the poll figure. */
export interface PollSettings extends RoundSettings {
  unread: number;
  processed: number[];
  callsPerRound: number;
}

function pollContender(
  key: string,
  label: string,
  subject: PollSubject,
  unread: number,
  processed: number,
  calls: number,
): Contender {
  return {
    key,
    label,
    unit: 'ms/poll',
    better: 'lower',
    async setup() {
      await subject.seed(unread, processed);
    },
    async runRound() {
      const started = performance.now();
      for (let call = 0; call < calls; call++) {
        const count = await subject.listUnread();
        if (count !== unread)
          throw new Error(`${label}: listed ${count} unread, expected ${unread}`);
      }
      return { value: (performance.now() - started) / calls };
    },
    async teardown() {
      await subject.close();
    },
  };
}

/** Unread poll cost with few unread messages and a small or a large processed history. */
export const pollFigure: FigureDefinition<PollSettings> = {
  id: 'poll',
  title: 'unread poll, 10 unread',
  headline: 'poll',
  settings: (quick) =>
    quick
      ? { warmup: 1, rounds: 3, unread: 10, processed: [0, 10_000], callsPerRound: 40 }
      : { warmup: 1, rounds: 7, unread: 10, processed: [0, 10_000], callsPerRound: 200 },
  async ours({ settings, folder }) {
    const contenders: Contender[] = [];
    for (const processed of settings.processed) {
      const subject = await createOursPollSubject(await folder(`ours-${processed}`));
      if (isNotAvailable(subject)) return subject;
      contenders.push(
        pollContender(
          `ours-${existingLabel(processed)}`,
          `listUnread, ${existingLabel(processed)} processed`,
          subject,
          settings.unread,
          processed,
          settings.callsPerRound,
        ),
      );
    }
    return contenders;
  },
  async baselines({ settings, folder }) {
    const contenders: Contender[] = [];
    for (const processed of settings.processed) {
      contenders.push(
        pollContender(
          `raw-${existingLabel(processed)}`,
          `raw readdir+read, ${existingLabel(processed)} processed`,
          createRawPollSubject(await folder(`raw-${processed}`)),
          settings.unread,
          processed,
          settings.callsPerRound,
        ),
      );
    }
    return contenders;
  },
  ratios: [
    {
      label: 'ours at 0 processed',
      numerator: 'ours-10k',
      denominator: 'ours-0',
      target: { op: '<=', value: 1.2 },
    },
    { label: 'raw readdir+read at 0', numerator: 'ours-0', denominator: 'raw-0' },
  ],
};
