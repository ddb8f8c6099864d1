import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseJsonLines } from '@teamkit/agent-clis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  createMarkerScript,
  requestsWithMarker,
} from '../mock-model-server/create-marker-script.js';
import { findToolResults, findUserTexts } from '../mock-model-server/find-last-tool-result.js';
import { findAgentCli } from './find-agent-cli.js';
import { killRunningAgentClis } from './run-agent-cli.js';
import {
  type AgentCliScenario,
  createAgentCliScenario,
  TURN_TIMEOUT_MS,
} from './test-support/agent-cli-scenario.js';

// The real OpenCode (`opencode run`) driven by a scripted chat completions API.

const cli = findAgentCli('opencode');
if (!cli.found) console.warn(`Skipping the OpenCode host tests: ${cli.reason}`);

const scenarios: AgentCliScenario[] = [];
afterEach(async () => {
  await Promise.all(scenarios.splice(0).map((scenario) => scenario.cleanup()));
});
afterAll(() => killRunningAgentClis());

describe.skipIf(!cli.found)('the real OpenCode', () => {
  const opencode = cli.found ? cli : undefined;
  const timeout = 3 * TURN_TIMEOUT_MS;

  it('edits with its own tools inside its folder, is denied outside it, and resumes the session', {
    timeout,
  }, async () => {
    if (!opencode) return;
    const scenario = await createAgentCliScenario(opencode, {
      model: 'mock-opencode',
      script: ({ repo, outside }) =>
        createMarkerScript({
          edit: [
            {
              toolCalls: [
                {
                  name: 'write',
                  arguments: { filePath: join(repo, 'notes.txt'), content: 'first\n' },
                },
              ],
            },
            {
              toolCalls: [
                {
                  name: 'write',
                  arguments: { filePath: join(outside, 'escape.txt'), content: 'x\n' },
                },
              ],
            },
            {
              toolCalls: [
                {
                  name: 'bash',
                  arguments: { command: 'echo shell > shell.txt', description: 'write' },
                },
              ],
            },
          ],
          again: [
            {
              toolCalls: [
                {
                  name: 'edit',
                  arguments: {
                    filePath: join(repo, 'notes.txt'),
                    oldString: 'first',
                    newString: 'second',
                  },
                },
              ],
            },
          ],
        }),
    });
    scenarios.push(scenario);
    const { environment, server, repo, outside } = scenario;

    const first = await scenario.run(
      'first turn',
      environment.firstTurnArgs('[turn:edit] Write notes.'),
    );
    expect(first.code, first.report).toBe(0);
    expect(readFileSync(join(repo, 'notes.txt'), 'utf8')).toBe('first\n');
    expect(existsSync(join(outside, 'escape.txt'))).toBe(false);
    // The denial is a tool error the model sees; the turn goes on to the next step.
    expect(readFileSync(join(repo, 'shell.txt'), 'utf8')).toBe('shell\n');
    const editRequests = requestsWithMarker(server.requests, 'edit').filter(
      (request) => request.body.tools?.length,
    );
    expect(editRequests.every((request) => request.flavour === 'chat-completions')).toBe(true);
    expect(editRequests[0]?.model).toBe('mock-opencode');
    const denial = findToolResults(editRequests.at(-1) ?? {})[1];
    expect(denial?.content).toContain('prevents you from using this specific tool call');
    expect(parseJsonLines(first.stdout).some((event) => event.type === 'tool_use')).toBe(true);

    const sessionId = environment.sessionIdFrom(first.stdout);
    expect(sessionId).toMatch(/^ses_\w+$/);
    const second = await scenario.run(
      'resumed turn',
      environment.resumeTurnArgs(sessionId ?? '', '[turn:again] Edit notes.'),
    );
    expect(second.code, second.report).toBe(0);
    expect(environment.sessionIdFrom(second.stdout)).toBe(sessionId);
    expect(readFileSync(join(repo, 'notes.txt'), 'utf8')).toBe('second\n');
    const resumed = requestsWithMarker(server.requests, 'again').find(
      (request) => request.body.tools?.length,
    );
    expect(findUserTexts(resumed ?? {}).some((text) => text.includes('[turn:edit]'))).toBe(true);
  });

  it('exits 1 with an error event when the model API fails', { timeout }, async () => {
    if (!opencode) return;
    const scenario = await createAgentCliScenario(opencode, {
      // OpenCode retries a 5xx with backoff and has no setting to stop it; retry-after-ms
      // makes each wait 1 ms instead of seconds.
      script: () => (request) =>
        request.body.tools?.length
          ? { error: { status: 500, message: 'scripted outage', retryAfterMs: 1 } }
          : { text: 'Title' },
    });
    scenarios.push(scenario);
    const run = await scenario.run('failing turn', scenario.environment.firstTurnArgs('Say hi.'));
    expect(run.code, run.report).toBe(1);
    const error = parseJsonLines(run.stdout).find((event) => event.type === 'error');
    expect(JSON.stringify(error)).toContain('scripted outage');
    const attempts = scenario.server.requests.filter((request) => request.body.tools?.length);
    console.info(`[retries] opencode made ${attempts.length} attempts at a failing turn`);
    expect(attempts.length).toBeGreaterThan(1);
  });

  it('loads an MCP server from opencode.json and calls its tool', { timeout }, async () => {
    if (!opencode) return;
    const scenario = await createAgentCliScenario(opencode, {
      env: { TEAMKIT_RUN: 'run-from-launcher' },
      echoMcp: { env: { TEAMKIT_MEMBER: 'alice' } },
      script: () =>
        createMarkerScript({
          mcp: [{ toolCalls: [{ name: 'echo_echo', arguments: { text: 'hello over mcp' } }] }],
        }),
    });
    scenarios.push(scenario);
    const run = await scenario.run(
      'MCP turn',
      scenario.environment.firstTurnArgs('[turn:mcp] Echo.'),
    );
    expect(run.code, run.report).toBe(0);
    const requests = requestsWithMarker(scenario.server.requests, 'mcp').filter(
      (request) => request.body.tools?.length,
    );
    expect(JSON.stringify(requests[0]?.body.tools)).toContain('"name":"echo_echo"');
    const echoed = findToolResults(requests.at(-1) ?? {}).find(
      (result) => result.toolName === 'echo_echo',
    );
    expect(echoed?.content).toBe('echo: hello over mcp');

    const entries = scenario.mcpEntries();
    expect(entries.filter((entry) => entry.event === 'call').map((entry) => entry.text)).toEqual([
      'hello over mcp',
    ]);
    const env = entries.find((entry) => entry.event === 'start')?.env as Record<string, string>;
    expect(env.TEAMKIT_MEMBER).toBe('alice');
    expect(env.TEAMKIT_RUN).toBe('run-from-launcher');
    expect(env.OPENCODE).toBe('1');
    expect(env.OPENCODE_PID).toMatch(/^\d+$/);
    console.info(`[mcp-env] opencode: ${Object.keys(env).join(' ')}`);
  });
});
