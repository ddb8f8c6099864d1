import type { Contender, FigureDefinition, RoundSettings } from '../figure.js';
import { isNotAvailable } from '../not-available.js';
import { createMcpCallSubject, type McpCallSubject } from './mcp-call-ours.js';

/** Sizes of the MCP call figure. */
export interface McpCallSettings extends RoundSettings {
  callsPerRound: number;
}

function perCall(
  key: string,
  label: string,
  calls: number,
  call: (index: number) => Promise<unknown>,
  teardown?: () => Promise<void>,
): Contender {
  return {
    key,
    label,
    unit: 'ms/call',
    better: 'lower',
    async runRound(round) {
      const started = performance.now();
      for (let index = 0; index < calls; index++) await call(round * calls + index);
      return { value: (performance.now() - started) / calls };
    },
    ...(teardown === undefined ? {} : { teardown }),
  };
}

/**
 * What the MCP server adds to a team operation: a `tools/call` over stdio to `teamkit-mcp`
 * (argument parsing, identity check against the run, the handler, the JSON-RPC round
 * trip) against the member client's own call in this process, for a write (send) and a
 * read (get a task).
 */
export const mcpCallFigure: FigureDefinition<McpCallSettings> = {
  id: 'mcp-call',
  title: 'MCP tool call over stdio vs the member client call it wraps',
  headline: 'MCP call',
  settings: (quick) =>
    quick
      ? { warmup: 1, rounds: 3, callsPerRound: 20 }
      : { warmup: 2, rounds: 7, callsPerRound: 50 },
  async ours({ settings, folder }) {
    const subject: McpCallSubject | Awaited<ReturnType<typeof createMcpCallSubject>> =
      await createMcpCallSubject(await folder('home'));
    if (isNotAvailable(subject)) return subject;
    const { direct } = subject;
    await direct.createTask({ subject: 'Benchmark task' });
    const calls = settings.callsPerRound;
    return [
      perCall('ours-send', 'send_message over MCP', calls, (index) =>
        subject.callTool('send_message', { to: 'writer-0', message: `mcp ${index}` }),
      ),
      perCall(
        'ours-get',
        'task_get over MCP',
        calls,
        () => subject.callTool('task_get', { id: '1' }),
        () => subject.close(),
      ),
      perCall('direct-send', 'MemberClient.send', calls, (index) =>
        direct.send({ to: 'writer-1', body: `direct ${index}` }),
      ),
      perCall('direct-get', 'MemberClient.getTask', calls, () => direct.getTask('1')),
    ];
  },
  async baselines() {
    return [];
  },
  ratios: [
    { label: 'direct send', numerator: 'ours-send', denominator: 'direct-send' },
    { label: 'direct get', numerator: 'ours-get', denominator: 'direct-get' },
  ],
};
