import type { Contender, FigureDefinition, RoundSettings } from '../figure.js';
import { isNotAvailable } from '../not-available.js';
import { percentile } from '../statistics.js';
import {
  createOursUiSubject,
  createRawWatchUiSubject,
  type MoveSubject,
} from './ui-latency-ours.js';

/** Sizes of the UI latency figure. */
export interface UiLatencySettings extends RoundSettings {
  /** Tasks on the board. */
  tasks: number;
  movesPerRound: number;
}

function moveContender(
  key: string,
  label: string,
  open: () => Promise<MoveSubject>,
  settings: UiLatencySettings,
): Contender {
  let subject: MoveSubject | undefined;
  return {
    key,
    label,
    unit: 'ms p99',
    better: 'lower',
    async setup() {
      subject = await open();
    },
    async runRound() {
      if (subject === undefined) throw new Error(`${label}: not set up`);
      const latencies: number[] = [];
      for (let move = 0; move < settings.movesPerRound; move += 1)
        latencies.push(await subject.move());
      return { value: percentile(latencies, 99), extra: { p50: percentile(latencies, 50) } };
    },
    async teardown() {
      await subject?.close();
    },
  };
}

/**
 * `team ui` live latency: a task claimed on disk → its card in IN PROGRESS in a real
 * Chromium page, on a board of 2,000 tasks, against a bare `fs.watch` of the tasks folder.
 */
export const uiLatencyFigure: FigureDefinition<UiLatencySettings> = {
  id: 'ui-latency',
  title: 'team ui: task change on disk → card moved in the page (p50/p99)',
  headline: 'ui latency',
  settings: (quick) =>
    quick
      ? { warmup: 1, rounds: 3, tasks: 2_000, movesPerRound: 15 }
      : { warmup: 1, rounds: 5, tasks: 2_000, movesPerRound: 40 },
  async ours({ settings, folder }) {
    const home = await folder('ours');
    const subject = await createOursUiSubject(home, settings.tasks);
    if (isNotAvailable(subject)) return subject;
    return [moveContender('ours', 'claim → card moved in Chromium', async () => subject, settings)];
  },
  async baselines({ settings, folder }) {
    return [
      moveContender(
        'fs-watch',
        'claim → raw fs.watch event',
        async () => createRawWatchUiSubject(await folder('raw'), settings.tasks),
        settings,
      ),
    ];
  },
  ratios: [{ label: 'raw fs.watch', numerator: 'ours', denominator: 'fs-watch' }],
};
