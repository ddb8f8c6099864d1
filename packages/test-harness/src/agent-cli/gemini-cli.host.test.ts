import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseJsonObject } from '@teamkit/agent-clis';
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

// The real Gemini CLI (`gemini --prompt`) driven by a scripted Gemini API.

const cli = findAgentCli('gemini');
if (!cli.found) console.warn(`Skipping the Gemini CLI host tests: ${cli.reason}`);

function offered(request: { body: { tools?: unknown[] } } | undefined): string[] {
  return (request?.body.tools ?? []).flatMap((tool) =>
    ((tool as { functionDeclarations?: { name: string }[] }).functionDeclarations ?? []).map(
      (declaration) => declaration.name,
    ),
  );
}

const scenarios: AgentCliScenario[] = [];
afterEach(async () => {
  await Promise.all(scenarios.splice(0).map((scenario) => scenario.cleanup()));
});
afterAll(() => killRunningAgentClis());

describe.skipIf(!cli.found)('the real Gemini CLI', () => {
  const gemini = cli.found ? cli : undefined;
  const timeout = 3 * TURN_TIMEOUT_MS;

  it('edits with its own tools inside its workspace, is refused outside it, and resumes the session', {
    timeout,
  }, async () => {
    if (!gemini) return;
    const scenario = await createAgentCliScenario(gemini, {
      script: ({ repo, outside }) =>
        createMarkerScript({
          edit: [
            {
              toolCalls: [
                {
                  name: 'write_file',
                  arguments: { file_path: join(repo, 'notes.txt'), content: 'first\n' },
                },
              ],
            },
            {
              toolCalls: [
                {
                  name: 'write_file',
                  arguments: { file_path: join(outside, 'escape.txt'), content: 'x\n' },
                },
              ],
            },
          ],
          again: [
            {
              toolCalls: [
                {
                  name: 'replace',
                  arguments: {
                    file_path: join(repo, 'notes.txt'),
                    old_string: 'first',
                    new_string: 'second',
                    instruction: 'Say second.',
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
    expect(parseJsonObject(first.stdout.trim())?.response).toBe('edit done');
    expect(readFileSync(join(repo, 'notes.txt'), 'utf8')).toBe('first\n');
    expect(existsSync(join(outside, 'escape.txt'))).toBe(false);
    const editRequests = requestsWithMarker(server.requests, 'edit');
    expect(editRequests.every((request) => request.flavour === 'gemini')).toBe(true);
    expect(editRequests[0]?.model).toBe('gemini-2.5-flash');
    expect(editRequests[0]?.stream).toBe(true);
    // auto_edit offers the file tools, not the shell.
    expect(offered(editRequests[0])).toContain('write_file');
    expect(offered(editRequests[0])).not.toContain('run_shell_command');
    const refusal = findToolResults(editRequests.at(-1) ?? {})[1];
    expect(refusal?.content).toContain('Path not in workspace');

    const sessionId = environment.sessionIdFrom(first.stdout);
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    const second = await scenario.run(
      'resumed turn',
      environment.resumeTurnArgs(sessionId ?? '', '[turn:again] Edit notes.'),
    );
    expect(second.code, second.report).toBe(0);
    expect(environment.sessionIdFrom(second.stdout)).toBe(sessionId);
    expect(readFileSync(join(repo, 'notes.txt'), 'utf8')).toBe('second\n');
    const resumed = requestsWithMarker(server.requests, 'again')[0];
    expect(findUserTexts(resumed ?? {}).some((text) => text.includes('[turn:edit]'))).toBe(true);
  });

  it('exits with the HTTP status modulo 256 and a JSON error on stderr when the model API fails', {
    timeout,
  }, async () => {
    if (!gemini) return;
    const scenario = await createAgentCliScenario(gemini, {
      script: () => () => ({ error: { status: 500, message: 'scripted outage' } }),
    });
    scenarios.push(scenario);
    const run = await scenario.run('failing turn', scenario.environment.firstTurnArgs('Say hi.'));
    // With --output-format json, Gemini CLI 0.61 exits with the API error's code as the
    // process status: 500 becomes 244 (503 would be 247). Text output exits 1.
    expect(run.code, run.report).toBe(244);
    expect(run.stdout.trim()).toBe('');
    expect(run.stderr).toContain('"code": 500');
    expect(run.stderr).toContain('scripted outage');
    // general.maxAttempts = 1: no retry (the default is 10 attempts, 5 s to 30 s apart).
    expect(scenario.server.requests).toHaveLength(1);
  });

  it('loads an MCP server from settings.json and calls its tool', { timeout }, async () => {
    if (!gemini) return;
    const scenario = await createAgentCliScenario(gemini, {
      env: { TEAMKIT_RUN: 'run-from-launcher' },
      echoMcp: { env: { TEAMKIT_MEMBER: 'alice' } },
      script: () =>
        createMarkerScript({
          mcp: [{ toolCalls: [{ name: 'mcp_echo_echo', arguments: { text: 'hello over mcp' } }] }],
        }),
    });
    scenarios.push(scenario);
    const run = await scenario.run(
      'MCP turn',
      scenario.environment.firstTurnArgs('[turn:mcp] Echo.'),
    );
    expect(run.code, run.report).toBe(0);
    const requests = requestsWithMarker(scenario.server.requests, 'mcp');
    expect(offered(requests[0])).toContain('mcp_echo_echo');
    const echoed = findToolResults(requests.at(-1) ?? {}).find(
      (result) => result.toolName === 'mcp_echo_echo',
    );
    expect(echoed?.content).toContain('echo: hello over mcp');

    const entries = scenario.mcpEntries();
    expect(entries.filter((entry) => entry.event === 'call').map((entry) => entry.text)).toEqual([
      'hello over mcp',
    ]);
    const env = entries.find((entry) => entry.event === 'start')?.env as Record<string, string>;
    expect(env.TEAMKIT_MEMBER).toBe('alice');
    expect(env.TEAMKIT_RUN).toBe('run-from-launcher');
    expect(env.GEMINI_CLI).toBe('1');
    // Gemini CLI keeps its API key from the servers it starts.
    expect(env.GEMINI_API_KEY).toBeUndefined();
    console.info(`[mcp-env] gemini: ${Object.keys(env).join(' ')}`);
  });
});
