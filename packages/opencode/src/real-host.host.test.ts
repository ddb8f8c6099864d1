import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  findLastToolResult,
  type MockModelServer,
  type MockTurn,
  startMockModelServer,
} from '@teamkit/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  describeResult,
  findOpencodeBinary,
  killRunningOpencode,
  markPluginDependencyInstalled,
  mockProviderConfig,
  offlineEnv,
  PROCESS_TIMEOUT_MS,
  runOpencode,
} from './test-support/real-opencode.js';

// The real OpenCode host (npm `opencode-ai`) loads a plugin file from a temporary
// project, lists the agents its `config` hook adds, and, driven by the mock model
// server, calls the plugin's tool with the model's arguments and the session id.

const MODEL_ID = 'mock-model';
const PROBE_ARGS = { message: 'hello from the mock model', count: 3 };

const binary = findOpencodeBinary();
if (binary.reason) console.warn(`Skipping the real OpenCode host test: ${binary.reason}`);

function readJsonLines(file: string): Record<string, unknown>[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe.skipIf(binary.path === undefined)('the real OpenCode host', () => {
  let root = '';
  let project = '';
  let probeOut = '';
  let dataHome = '';
  let env: NodeJS.ProcessEnv = {};
  let server: MockModelServer | undefined;
  const mainTurns: MockTurn[] = [
    { toolCalls: [{ name: 'probe_echo', arguments: PROBE_ARGS }] },
    { text: 'The probe answered.' },
  ];

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'teamkit-opencode-'));
    const home = join(root, 'home');
    project = join(root, 'project');
    probeOut = join(root, 'probe-out');
    dataHome = join(home, '.local', 'share');
    const configHome = join(home, '.config');
    for (const dir of [home, probeOut, join(project, '.opencode', 'plugin')]) {
      mkdirSync(dir, { recursive: true });
    }
    markPluginDependencyInstalled(join(project, '.opencode'));
    markPluginDependencyInstalled(join(configHome, 'opencode'));
    copyFileSync(
      join(dirname(fileURLToPath(import.meta.url)), '__fixtures__', 'teamkit-probe.js'),
      join(project, '.opencode', 'plugin', 'teamkit-probe.js'),
    );

    // The host also asks the model for a session title; those requests carry no tools
    // and must not use up the scripted turns.
    let nextMainTurn = 0;
    server = await startMockModelServer({
      models: [MODEL_ID],
      idleTimeoutMs: 2 * PROCESS_TIMEOUT_MS,
      script: (request) => {
        if (!request.body.tools?.length) return { text: 'Probe session' };
        const turn = mainTurns[nextMainTurn];
        nextMainTurn += 1;
        return turn;
      },
    });

    writeFileSync(
      join(project, 'opencode.json'),
      JSON.stringify(
        {
          $schema: 'https://opencode.ai/config.json',
          autoupdate: false,
          share: 'disabled',
          provider: mockProviderConfig(server.url, MODEL_ID),
        },
        null,
        2,
      ),
    );

    env = offlineEnv(home, { TEAMKIT_PROBE_OUT: probeOut });
  });

  afterAll(async () => {
    killRunningOpencode();
    await server?.close();
    if (root) await rm(root, { recursive: true, force: true, maxRetries: 5 });
  });

  it('lists the agent added by a local plugin config hook', {
    timeout: PROCESS_TIMEOUT_MS + 30_000,
  }, async () => {
    const result = await runOpencode(binary.path ?? '', ['agent', 'list'], project, env);
    const report = describeResult('agent list', result, dataHome);
    expect(result.code, report).toBe(0);
    expect(result.stdout, report).toMatch(/^probe-agent \(primary\)/m);
  });

  it('runs a prompt in which the scripted model calls the plugin tool', {
    timeout: PROCESS_TIMEOUT_MS + 30_000,
  }, async () => {
    const args = [
      'run',
      '--model',
      `mock/${MODEL_ID}`,
      '--agent',
      'probe-agent',
      'Call probe_echo.',
    ];
    const result = await runOpencode(binary.path ?? '', args, project, env);
    const report = describeResult('run', result, dataHome);
    expect(result.code, report).toBe(0);
    expect(result.stdout, report).toContain('The probe answered.');

    const calls = readJsonLines(join(probeOut, 'calls.jsonl'));
    expect(calls, report).toHaveLength(1);
    const call = calls[0] as {
      args: unknown;
      sessionID: string;
      agent: string;
      child: { id?: string; parentID?: string; fetchedId?: string };
    };
    expect(call.args).toEqual(PROBE_ARGS);
    expect(call.sessionID).toMatch(/^ses_\w+$/);
    expect(call.agent).toBe('probe-agent');
    // A tool can open a child session of its own session through the plugin client.
    expect(call.child.id).toMatch(/^ses_\w+$/);
    expect(call.child.parentID).toBe(call.sessionID);
    expect(call.child.fetchedId).toBe(call.child.id);

    const toolRequests = (server?.requests ?? []).filter((request) => request.body.tools?.length);
    expect(toolRequests, report).toHaveLength(2);
    const offered = JSON.stringify(toolRequests[0]?.body.tools);
    expect(offered).toContain('probe_echo');
    expect(findLastToolResult(toolRequests[0] ?? {})).toBeUndefined();
    const toolResult = findLastToolResult(toolRequests[1] ?? {});
    expect(toolResult?.toolName).toBe('probe_echo');
    expect(JSON.parse(toolResult?.arguments ?? 'null')).toEqual(PROBE_ARGS);
    expect(toolResult?.content).toContain(`echoed ${JSON.stringify(PROBE_ARGS)}`);
    expect(server?.exhausted).toBe(false);

    const events = readJsonLines(join(probeOut, 'events.jsonl'));
    const forSession = (type: string) =>
      events.some((event) => event.type === type && event.sessionID === call.sessionID);
    expect(forSession('session.created')).toBe(true);
    expect(forSession('session.idle')).toBe(true);
  });
});
