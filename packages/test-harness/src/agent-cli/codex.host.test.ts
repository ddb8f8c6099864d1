import { execFileSync } from 'node:child_process';
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

// The real Codex (`codex exec`) driven by a scripted OpenAI Responses API.

const cli = findAgentCli('codex');
if (!cli.found) console.warn(`Skipping the Codex host tests: ${cli.reason}`);

const shell = (cmd: string) => ({ name: 'exec_command', arguments: { cmd } });

const scenarios: AgentCliScenario[] = [];
afterEach(async () => {
  await Promise.all(scenarios.splice(0).map((scenario) => scenario.cleanup()));
});
afterAll(() => killRunningAgentClis());

describe.skipIf(!cli.found)('the real Codex', () => {
  const codex = cli.found ? cli : undefined;
  const timeout = 3 * TURN_TIMEOUT_MS;

  it('edits with its shell tool inside its sandbox, is refused outside it, and resumes the conversation', {
    timeout,
  }, async () => {
    if (!codex) return;
    const scenario = await createAgentCliScenario(codex, {
      model: 'mock-codex',
      // Codex's sandbox keeps .git read-only; the repository's git folder is made writable
      // so that the model can commit.
      script: ({ outside }) =>
        createMarkerScript({
          edit: [
            { toolCalls: [shell("printf 'first\\n' > notes.txt")] },
            { toolCalls: [shell(`printf 'x\\n' > ${join(outside, 'escape.txt')}`)] },
            {
              toolCalls: [
                shell(
                  'git add notes.txt && git -c user.name=Codex -c user.email=codex@teamkit.invalid commit -qm notes',
                ),
              ],
            },
          ],
          again: [{ toolCalls: [shell("printf 'second\\n' > notes.txt")] }],
        }),
      writableRootsFromRepo: true,
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
    const editRequests = requestsWithMarker(server.requests, 'edit');
    expect(editRequests.every((request) => request.flavour === 'openai-responses')).toBe(true);
    expect(editRequests[0]?.model).toBe('mock-codex');
    expect(editRequests[0]?.stream).toBe(true);
    const results = findToolResults(editRequests.at(-1) ?? {});
    expect(results[1]?.content).toContain('Read-only file system');
    const log = execFileSync('git', ['log', '--format=%s'], { cwd: repo, encoding: 'utf8' });
    expect(log.split('\n')[0], results.at(-1)?.content).toBe('notes');
    const events = parseJsonLines(first.stdout);
    expect(events.at(-1)?.type).toBe('turn.completed');
    expect(
      events.find(
        (event) =>
          event.type === 'item.completed' &&
          (event.item as { type?: string }).type === 'agent_message',
      ),
    ).toBeDefined();

    const sessionId = environment.sessionIdFrom(first.stdout);
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    const second = await scenario.run(
      'resumed turn',
      environment.resumeTurnArgs(sessionId ?? '', '[turn:again] Rewrite notes.'),
    );
    expect(second.code, second.report).toBe(0);
    expect(environment.sessionIdFrom(second.stdout)).toBe(sessionId);
    expect(readFileSync(join(repo, 'notes.txt'), 'utf8')).toBe('second\n');
    const resumed = requestsWithMarker(server.requests, 'again')[0];
    expect(findUserTexts(resumed ?? {}).some((text) => text.includes('[turn:edit]'))).toBe(true);
    expect(resumed?.headers['session-id']).toBe(sessionId);
  });

  it('exits 1 with turn.failed when the model API fails, after no retry', { timeout }, async () => {
    if (!codex) return;
    const scenario = await createAgentCliScenario(codex, {
      script: () => () => ({ error: { status: 500, message: 'scripted outage' } }),
    });
    scenarios.push(scenario);
    const run = await scenario.run('failing turn', scenario.environment.firstTurnArgs('Say hi.'));
    expect(run.code, run.report).toBe(1);
    const events = parseJsonLines(run.stdout);
    expect(events.at(-1)?.type).toBe('turn.failed');
    // request_max_retries = stream_max_retries = 0: one request (the default is 5 retries each).
    expect(scenario.server.requests).toHaveLength(1);
  });

  it('loads an MCP server from its -c overrides and calls its tool, approved', {
    timeout,
  }, async () => {
    if (!codex) return;
    const scenario = await createAgentCliScenario(codex, {
      env: { TEAMKIT_RUN: 'run-from-launcher', TEAMKIT_NOT_FORWARDED: 'x' },
      echoMcp: { env: { TEAMKIT_MEMBER: 'alice' }, inheritEnv: ['TEAMKIT_RUN'] },
      script: () =>
        createMarkerScript({
          mcp: [
            { toolCalls: [{ name: 'mcp__echo__echo', arguments: { text: 'hello over mcp' } }] },
          ],
        }),
    });
    scenarios.push(scenario);
    const run = await scenario.run(
      'MCP turn',
      scenario.environment.firstTurnArgs('[turn:mcp] Echo.'),
    );
    expect(run.code, run.report).toBe(0);
    const requests = requestsWithMarker(scenario.server.requests, 'mcp');
    expect(JSON.stringify(requests[0]?.body.tools)).toContain('"name":"mcp__echo"');
    const echoed = findToolResults(requests.at(-1) ?? {}).find(
      (result) => result.toolName === 'mcp__echo__echo',
    );
    expect(echoed?.content).toContain('echo: hello over mcp');

    const entries = scenario.mcpEntries();
    const call = entries.find((entry) => entry.event === 'call');
    expect(call?.text).toBe('hello over mcp');
    const sessionId = scenario.environment.sessionIdFrom(run.stdout);
    expect((call?.meta as { threadId?: string } | undefined)?.threadId).toBe(sessionId);
    const env = entries.find((entry) => entry.event === 'start')?.env as Record<string, string>;
    expect(env.TEAMKIT_MEMBER).toBe('alice');
    expect(env.TEAMKIT_RUN).toBe('run-from-launcher');
    // Codex clears the server's environment: only HOME, PATH, `env` and `env_vars` reach it.
    expect(env.TEAMKIT_NOT_FORWARDED).toBeUndefined();
    console.info(`[mcp-env] codex: ${Object.keys(env).join(' ')}`);
  });

  it('with a model it knows, edits through apply_patch and finds MCP tools through tool_search', {
    timeout,
  }, async () => {
    if (!codex) return;
    const patch = '*** Begin Patch\n*** Add File: patched.txt\n+patched\n*** End Patch\n';
    const scenario = await createAgentCliScenario(codex, {
      // A model with metadata in Codex gets apply_patch (a free-form `custom` tool) and
      // deferred MCP tools, as the real models do.
      model: 'gpt-5.5',
      echoMcp: {},
      script: () =>
        createMarkerScript({
          known: [
            { toolCalls: [{ name: 'apply_patch', arguments: patch }] },
            { toolCalls: [{ name: 'tool_search', arguments: { query: 'echo', limit: 2 } }] },
            { toolCalls: [{ name: 'mcp__echo__echo', arguments: { text: 'found by search' } }] },
          ],
        }),
    });
    scenarios.push(scenario);
    const run = await scenario.run(
      'known-model turn',
      scenario.environment.firstTurnArgs('[turn:known] Patch.'),
    );
    expect(run.code, run.report).toBe(0);
    expect(readFileSync(join(scenario.repo, 'patched.txt'), 'utf8')).toBe('patched\n');
    const requests = requestsWithMarker(scenario.server.requests, 'known');
    const types = (requests[0]?.body.tools ?? []).map((tool) => (tool as { type?: string }).type);
    expect(types).toContain('custom');
    expect(types).toContain('tool_search');
    expect(types).not.toContain('namespace');
    const results = findToolResults(requests.at(-1) ?? {});
    expect(results.map((result) => result.toolName)).toEqual([
      'apply_patch',
      'tool_search',
      'mcp__echo__echo',
    ]);
    expect(results[1]?.content).toContain('"name":"mcp__echo"');
    expect(results[2]?.content).toContain('echo: found by search');
  });
});
