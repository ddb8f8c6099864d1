import { spawnSync } from 'node:child_process';
import type { Contender, FigureDefinition } from '../figure.js';
import { isNotAvailable } from '../not-available.js';
import { childCpuMs } from './child-cpu.js';
import { resolveOursCliCommand, type TimedCommand } from './cli-start-ours.js';

// Each round starts the command this many times: CPU time is counted in 10 ms ticks, so
// one start alone would measure a ~0.1 s command only to the nearest tenth.
const STARTS_PER_ROUND = 5;

function commandContender(key: string, label: string, timed: TimedCommand): Contender {
  return {
    key,
    label,
    unit: 'ms',
    better: 'lower',
    async runRound() {
      let wall = 0;
      let cpu: number | undefined = 0;
      for (let start = 0; start < STARTS_PER_ROUND; start += 1) {
        const cpuBefore = childCpuMs();
        const started = performance.now();
        const result = spawnSync(timed.command, timed.args, { env: timed.env, stdio: 'ignore' });
        wall += performance.now() - started;
        const cpuAfter = childCpuMs();
        if (result.error !== undefined) throw result.error;
        if (result.status !== 0) {
          throw new Error(`${label} exited ${result.status ?? result.signal}`);
        }
        cpu =
          cpu === undefined || cpuBefore === undefined || cpuAfter === undefined
            ? undefined
            : cpu + cpuAfter - cpuBefore;
      }
      return {
        value: wall / STARTS_PER_ROUND,
        ...(cpu === undefined ? {} : { extra: { cpu: cpu / STARTS_PER_ROUND } }),
      };
    },
  };
}

/**
 * Wall and CPU time (user + system, `#cpu`) of a CLI call that answers from disk, against
 * a bare Node start.
 */
export const cliStartFigure: FigureDefinition = {
  id: 'cli-start',
  title: 'CLI start, wall and CPU time',
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
    {
      label: 'node -e 0, CPU time',
      numerator: 'ours#cpu',
      denominator: 'node-e-0#cpu',
      target: { op: '<=', value: 1.3 },
    },
  ],
};
