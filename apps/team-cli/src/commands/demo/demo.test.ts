import { describe, expect, it } from 'vitest';
import { runCli } from '../../test-support/run-cli.js';

describe('team demo', () => {
  it('runs the coding team end to end and leaves nothing running', async () => {
    const result = await runCli(['demo', '--json', '--timeout', '150'], {}, { timeoutMs: 170_000 });
    expect(result.code, result.stderr.slice(-2000)).toBe(0);
    const { summary } = result.json() as unknown as {
      summary: {
        tasks: { total: number; byStatus: Record<string, number> };
        changesRequested: number;
        messages: number;
        commits: Record<string, number>;
        pids: number[];
        leftRunning: number[];
        kept?: string;
      };
    };
    expect(summary.tasks).toEqual({ total: 6, byStatus: { approved: 6 } });
    expect(summary.changesRequested).toBe(1);
    expect(summary.messages).toBeGreaterThan(10);
    const branches = Object.keys(summary.commits);
    const implementer = branches.find((branch) => branch.endsWith('/implementer')) ?? '';
    const tester = branches.find((branch) => branch.endsWith('/tester')) ?? '';
    expect(summary.commits[implementer]).toBeGreaterThanOrEqual(2);
    expect(summary.commits[tester]).toBeGreaterThanOrEqual(1);
    expect(summary.pids).toHaveLength(6);
    expect(summary.leftRunning).toEqual([]);
    for (const pid of summary.pids) expect(() => process.kill(pid, 0)).toThrow();
    expect(summary.kept).toBeUndefined();
  }, 180_000);
});
