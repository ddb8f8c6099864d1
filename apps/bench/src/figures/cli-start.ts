import { spawnSync } from 'node:child_process';
import type { Contender, FigureDefinition } from '../figure.js';
import { isNotAvailable } from '../not-available.js';
import { resolveOursCliCommand, type TimedCommand } from './cli-start-ours.js';

function commandContender(key: string, label: string, timed: TimedCommand): Contender {
  return {
    key,
    label,
    unit: 'ms',
    better: 'lower',
    async runRound() {
      const started = performance.now();
      const result = spawnSync(timed.command, timed.args, { env: timed.env, stdio: 'ignore' });
      const elapsed = performance.now() - started;
      if (result.error !== undefined) throw result.error;
      if (result.status !== 0) throw new Error(`${label} exited ${result.status ?? result.signal}`);
      return { value: elapsed };
    },
  };
}

/** Wall time of a CLI call that answers from disk, against a bare Node start. */
export const cliStartFigure: FigureDefinition = {
  id: 'cli-start',
  title: 'CLI start, wall time',
  headline: 'CLI start',
  settings: (quick) => (quick ? { warmup: 2, rounds: 9 } : { warmup: 3, rounds: 21 }),
  async ours({ folder }) {
    const timed = resolveOursCliCommand(await folder('home'));
    if (isNotAvailable(timed)) return timed;
    return [commandContender('ours', 'team run status --json', timed)];
  },
  async baselines() {
    return [
      commandContender('node-e-0', 'node -e 0', {
        command: process.execPath,
        args: ['-e', '0'],
        env: process.env,
      }),
    ];
  },
  ratios: [
    {
      label: 'node -e 0',
      numerator: 'ours',
      denominator: 'node-e-0',
      target: { op: '<=', value: 3 },
    },
  ],
};
