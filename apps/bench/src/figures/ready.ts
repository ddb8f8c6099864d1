import { createRawReadySubject } from '../baselines/ready-subject.js';
import type { Contender, FigureDefinition, RoundSettings } from '../figure.js';
import { isNotAvailable } from '../not-available.js';
import { createOursReadySubject, type ReadyQueueTask, type ReadySubject } from './ready-ours.js';

/** Sizes of the ready-queue figure. */
export interface ReadySettings extends RoundSettings {
  tasks: number;
  callsPerRound: number;
}

/**
 * The fixture every ready-queue measurement uses: task `i` depends on `i-1` (a chain)
 * and on `floor(i/2)` (fan-in), and the first fifth is completed, so the answer is
 * non-trivial and fixed for a given count.
 */
export function readyQueueFixture(count: number): ReadyQueueTask[] {
  const completedBelow = Math.floor(count / 5);
  return Array.from({ length: count }, (_, index) => {
    const dependsOn = new Set<string>();
    if (index > 0) dependsOn.add(`${index}`);
    if (index > 1) dependsOn.add(`${Math.floor(index / 2) + 1}`);
    return {
      id: `${index + 1}`,
      dependsOn: [...dependsOn],
      status: index < completedBelow ? 'completed' : 'pending',
    };
  });
}

/**
 * How many tasks of {@link readyQueueFixture} are ready (pending with every dependency
 * completed); an adapter's answer must match it.
 */
export function expectedReadyCount(tasks: readonly ReadyQueueTask[]): number {
  const status = new Map(tasks.map((task) => [task.id, task.status]));
  return tasks.filter(
    (task) =>
      task.status === 'pending' && task.dependsOn.every((id) => status.get(id) === 'completed'),
  ).length;
}

/** The cost of computing the ready queue over a large task list with dependencies. */
export const readyFigure: FigureDefinition<ReadySettings> = {
  id: 'ready',
  title: 'ready queue over tasks with dependencies',
  headline: 'ready',
  settings: (quick) =>
    quick
      ? { warmup: 1, rounds: 3, tasks: 2_000, callsPerRound: 5 }
      : { warmup: 1, rounds: 7, tasks: 10_000, callsPerRound: 10 },
  async ours({ settings, folder }) {
    const subject = await createOursReadySubject(await folder('ours'));
    if (isNotAvailable(subject)) return subject;
    return [readyContender('ours', 'readyTasks', subject, settings)];
  },
  async baselines({ settings, folder }) {
    return [
      readyContender(
        'raw',
        'raw readdir+read+parse',
        createRawReadySubject(await folder('raw')),
        settings,
      ),
    ];
  },
  ratios: [{ label: 'raw floor', numerator: 'ours', denominator: 'raw' }],
};

function readyContender(
  key: string,
  label: string,
  subject: ReadySubject,
  settings: ReadySettings,
): Contender {
  const fixture = readyQueueFixture(settings.tasks);
  const expected = expectedReadyCount(fixture);
  return {
    key,
    label,
    unit: 'ms/call',
    better: 'lower',
    async setup() {
      await subject.seed(fixture);
    },
    async runRound() {
      const started = performance.now();
      for (let call = 0; call < settings.callsPerRound; call++) {
        const ready = await subject.readyTasks();
        if (ready !== expected) throw new Error(`${label} found ${ready}, expected ${expected}`);
      }
      return { value: (performance.now() - started) / settings.callsPerRound };
    },
    async teardown() {
      await subject.close();
    },
  };
}
