import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
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

// The real Claude Code (`claude -p`) driven by a scripted Anthropic Messages API.

const cli = findAgentCli('claude');
if (!cli.found) console.warn(`Skipping the Claude Code host tests: ${cli.reason}`);

interface ClaudeResult {
  session_id?: string;
  is_error?: boolean;
  result?: string;
  api_error_status?: number | null;
  permission_denials?: { tool_name: string; tool_input: Record<string, unknown> }[];
}

function parseResult(stdout: string): ClaudeResult {
  return JSON.parse(stdout.trim()) as ClaudeResult;
}

const scenarios: AgentCliScenario[] = [];
afterEach(async () => {
  await Promise.all(scenarios.splice(0).map((scenario) => scenario.cleanup()));
});
afterAll(() => killRunningAgentClis());

describe.skipIf(!cli.found)('the real Claude Code', () => {
  const claude = cli.found ? cli : undefined;
  const timeout = 3 * TURN_TIMEOUT_MS;

  it('edits with its own tools inside its folder, is refused outside it, and resumes the conversation', {
    timeout,
  }, async () => {
    if (!claude) return;
    const scenario = await createAgentCliScenario(claude, {
      model: 'claude-sonnet-4-5',
      script: ({ repo, outside }) =>
        createMarkerScript({
          edit: [
            {
              toolCalls: [
                {
                  name: 'Write',
                  arguments: { file_path: join(repo, 'notes.txt'), content: 'first\n' },
                },
              ],
            },
            {
              toolCalls: [
                {
                  name: 'Bash',
                  arguments: { command: 'echo shell > shell.txt', description: 'write' },
                },
              ],
            },
            {
              toolCalls: [
                {
                  name: 'Write',
                  arguments: { file_path: join(outside, 'escape.txt'), content: 'x\n' },
                },
              ],
            },
            {
              toolCalls: [
                {
                  name: 'Bash',
                  arguments: {
                    command: `echo x > ${join(outside, 'shell.txt')}`,
                    description: 'write',
                  },
                },
              ],
            },
          ],
          again: [
            {
              toolCalls: [
                {
                  name: 'Edit',
                  arguments: {
                    file_path: join(repo, 'notes.txt'),
                    old_string: 'first',
                    new_string: 'second',
                  },
                },
              ],
            },
          ],
        }),
    });
    scenarios.push(scenario);
    const { environment, server } = scenario;
    const inRepo = (name: string) => join(scenario.repo, name);
    const outside = (name: string) => join(scenario.outside, name);

    const first = await scenario.run(
      'first turn',
      environment.firstTurnArgs('[turn:edit] Write notes.'),
    );
    expect(first.code, first.report).toBe(0);
    const firstResult = parseResult(first.stdout);
    expect(firstResult.is_error).toBe(false);
    expect(firstResult.result).toBe('edit done');
    expect(readFileSync(inRepo('notes.txt'), 'utf8')).toBe('first\n');
    expect(readFileSync(inRepo('shell.txt'), 'utf8')).toBe('shell\n');
    expect(existsSync(outside('escape.txt'))).toBe(false);
    expect(existsSync(outside('shell.txt'))).toBe(false);
    expect(firstResult.permission_denials?.map((denial) => denial.tool_name)).toEqual([
      'Write',
      'Bash',
    ]);
    const editRequests = requestsWithMarker(server.requests, 'edit');
    expect(editRequests.every((request) => request.flavour === 'anthropic-messages')).toBe(true);
    expect(editRequests[0]?.model).toBe('claude-sonnet-4-5');
    expect(editRequests[0]?.stream).toBe(true);
    const refusals = findToolResults(editRequests.at(-1) ?? {}).slice(-2);
    expect(refusals.map((result) => result.toolName)).toEqual(['Write', 'Bash']);

    const sessionId = environment.sessionIdFrom(first.stdout);
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    const second = await scenario.run(
      'resumed turn',
      environment.resumeTurnArgs(sessionId ?? '', '[turn:again] Edit notes.'),
    );
    expect(second.code, second.report).toBe(0);
    expect(environment.sessionIdFrom(second.stdout)).toBe(sessionId);
    expect(readFileSync(inRepo('notes.txt'), 'utf8')).toBe('second\n');
    const resumed = requestsWithMarker(server.requests, 'again')[0];
    const texts = findUserTexts(resumed ?? {});
    expect(texts.some((text) => text.includes('[turn:edit]'))).toBe(true);
    expect(findToolResults(resumed ?? {}).map((result) => result.toolName)).toContain('Write');
  });

  it('exits 1 with the API error in its JSON result when the model API fails', {
    timeout,
  }, async () => {
    if (!claude) return;
    const scenario = await createAgentCliScenario(claude, {
      script: () => () => ({ error: { status: 500, message: 'scripted outage' } }),
    });
    scenarios.push(scenario);
    const run = await scenario.run('failing turn', scenario.environment.firstTurnArgs('Say hi.'));
    expect(run.code, run.report).toBe(1);
    const result = parseResult(run.stdout);
    expect(result.is_error).toBe(true);
    expect(result.api_error_status).toBe(500);
    expect(result.result).toContain('API Error: 500 scripted outage');
    // CLAUDE_CODE_MAX_RETRIES=0: one request, no retry.
    expect(scenario.server.requests).toHaveLength(1);
  });

  it('loads an MCP server from --mcp-config, finds its tool with ToolSearch and calls it', {
    timeout,
  }, async () => {
    if (!claude) return;
    const scenario = await createAgentCliScenario(claude, {
      env: { TEAMKIT_RUN: 'run-from-launcher' },
      echoMcp: { env: { TEAMKIT_MEMBER: 'alice' } },
      script: () =>
        createMarkerScript({
          mcp: [
            // Claude Code defers MCP tools: the model loads the tool's schema first.
            {
              toolCalls: [
                {
                  name: 'ToolSearch',
                  arguments: { query: 'select:mcp__echo__echo', max_results: 1 },
                },
              ],
            },
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
    const offered = (index: number) =>
      (requests[index]?.body.tools ?? []).map((tool) => (tool as { name?: string }).name);
    expect(offered(0)).toContain('ToolSearch');
    expect(offered(0)).not.toContain('mcp__echo__echo');
    expect(offered(1)).toContain('mcp__echo__echo');
    const echoed = findToolResults(requests.at(-1) ?? {}).find(
      (result) => result.toolName === 'mcp__echo__echo',
    );
    expect(echoed?.content).toBe('echo: hello over mcp');

    const entries = scenario.mcpEntries();
    expect(entries.filter((entry) => entry.event === 'call').map((entry) => entry.text)).toEqual([
      'hello over mcp',
    ]);
    const env = entries.find((entry) => entry.event === 'start')?.env as Record<string, string>;
    expect(env.TEAMKIT_MEMBER).toBe('alice');
    expect(env.TEAMKIT_RUN).toBe('run-from-launcher');
    expect(env.CLAUDE_CODE_SESSION_ID).toBe(scenario.environment.sessionIdFrom(run.stdout));
    expect(env.CLAUDE_PROJECT_DIR).toBe(scenario.repo);
    expect(env.CLAUDECODE).toBe('1');
    console.info(`[mcp-env] claude: ${Object.keys(env).join(' ')}`);
  });
});
