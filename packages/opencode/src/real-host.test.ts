import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
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

// The real OpenCode host (npm `opencode-ai`) loads a plugin file from a temporary
// project, lists the agents its `config` hook adds, and, driven by the mock model
// server, calls the plugin's tool with the model's arguments and the session id.

const PLUGIN_VERSION = '1.18.33';
const PROCESS_TIMEOUT_MS = 240_000;
const MODEL_ID = 'mock-model';
const PROBE_ARGS = { message: 'hello from the mock model', count: 3 };

function findBinary(): { path?: string; reason?: string } {
  let path: string;
  try {
    const require = createRequire(import.meta.url);
    path = join(dirname(require.resolve('opencode-ai/package.json')), 'bin', 'opencode.exe');
  } catch (error) {
    return { reason: `opencode-ai is not installed: ${String(error)}` };
  }
  if (!existsSync(path)) return { reason: `no opencode binary at ${path}` };
  const probe = spawnSync(path, ['--version'], { encoding: 'utf8', timeout: 60_000 });
  if (probe.error || probe.status !== 0) {
    const detail = probe.error ? String(probe.error) : `exit ${probe.status}: ${probe.stderr}`;
    return { reason: `the opencode binary cannot start here (${detail.trim()})` };
  }
  return { path };
}

const binary = findBinary();
if (binary.reason) console.warn(`Skipping the real OpenCode host test: ${binary.reason}`);

interface ProcessResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

const running = new Set<number>();

function killTree(pid: number): void {
  try {
    // The child leads its own process group, so this also ends anything it started.
    process.kill(process.platform === 'win32' ? pid : -pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

function runOpencode(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary.path ?? 'opencode', args, {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
    });
    const pid = child.pid;
    if (pid === undefined) {
      reject(new Error('opencode did not start'));
      return;
    }
    running.add(pid);
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const timer = setTimeout(() => {
      timedOut = true;
      killTree(pid);
    }, PROCESS_TIMEOUT_MS);
    child.on('error', (error) => {
      clearTimeout(timer);
      running.delete(pid);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      running.delete(pid);
      resolve({ code, signal, stdout, stderr, timedOut });
    });
  });
}

function describeResult(command: string, result: ProcessResult, logDir: string): string {
  const tail = (text: string) => text.slice(-3000);
  let log = '';
  try {
    const logFolder = join(logDir, 'opencode', 'log');
    log = readFileSync(join(logFolder, 'opencode.log'), 'utf8');
  } catch {
    // No log written.
  }
  return [
    `opencode ${command} ${result.timedOut ? `timed out after ${PROCESS_TIMEOUT_MS} ms` : `exited with ${result.code ?? result.signal}`}`,
    `stdout tail:\n${tail(result.stdout)}`,
    `stderr tail:\n${tail(result.stderr)}`,
    `log tail:\n${tail(log)}`,
  ].join('\n');
}

function readJsonLines(file: string): Record<string, unknown>[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/**
 * OpenCode installs `@opencode-ai/plugin` into every config folder in the background
 * and waits for it before loading local plugins. A package.json, a lock naming the
 * dependency and a node_modules folder make it skip that install, so the test needs no
 * registry; the probe plugin imports nothing from it.
 */
function markPluginDependencyInstalled(configDir: string): void {
  const dependencies = { '@opencode-ai/plugin': PLUGIN_VERSION };
  mkdirSync(join(configDir, 'node_modules'), { recursive: true });
  writeFileSync(join(configDir, 'package.json'), JSON.stringify({ dependencies }));
  writeFileSync(
    join(configDir, 'package-lock.json'),
    JSON.stringify({ lockfileVersion: 3, packages: { '': { dependencies } } }),
  );
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
          provider: {
            mock: {
              npm: '@ai-sdk/openai-compatible',
              name: 'Mock model server',
              options: { baseURL: server.url, apiKey: 'mock-key' },
              models: { [MODEL_ID]: { name: 'Mock model', tool_call: true } },
            },
          },
        },
        null,
        2,
      ),
    );

    env = {
      PATH: process.env.PATH,
      HOME: home,
      USERPROFILE: home,
      XDG_CONFIG_HOME: configHome,
      XDG_DATA_HOME: dataHome,
      XDG_CACHE_HOME: join(home, '.cache'),
      XDG_STATE_HOME: join(home, '.local', 'state'),
      TMPDIR: process.env.TMPDIR,
      // Keep the host off the network: no models.dev catalogue, update check, sharing
      // or language-server downloads.
      OPENCODE_DISABLE_MODELS_FETCH: '1',
      OPENCODE_DISABLE_AUTOUPDATE: '1',
      OPENCODE_DISABLE_SHARE: '1',
      OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
      OPENCODE_DISABLE_CLAUDE_CODE: '1',
      NO_PROXY: '127.0.0.1,localhost',
      TEAMKIT_PROBE_OUT: probeOut,
    };
  });

  afterAll(async () => {
    for (const pid of running) killTree(pid);
    await server?.close();
    if (root) await rm(root, { recursive: true, force: true, maxRetries: 5 });
  });

  it('lists the agent added by a local plugin config hook', {
    timeout: PROCESS_TIMEOUT_MS + 30_000,
  }, async () => {
    const result = await runOpencode(['agent', 'list'], project, env);
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
    const result = await runOpencode(args, project, env);
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
