import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { type AgentCliRun, killRunningAgentClis, runAgentCli } from '@teamkit/test-harness';

// Helpers for tests that drive the real OpenCode binary from the `opencode-ai` dev
// dependency: finding it, running it with a bounded timeout, and keeping it offline.

/** The `@opencode-ai/plugin` version the host installs into config folders. */
export const PLUGIN_VERSION = '1.18.33';
/** How long one `opencode` process may run. */
export const PROCESS_TIMEOUT_MS = 240_000;

/** The binary's path, or why it cannot run here. */
export function findOpencodeBinary(): { path?: string; reason?: string } {
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

/** What one `opencode` process did. */
export type ProcessResult = AgentCliRun;

/** Kills every `opencode` process these helpers started that is still running. */
export function killRunningOpencode(): void {
  killRunningAgentClis();
}

/** Runs the binary with an argument array in `cwd`, killed after {@link PROCESS_TIMEOUT_MS}. */
export function runOpencode(
  binary: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<ProcessResult> {
  return runAgentCli(binary, args, { cwd, env, timeoutMs: PROCESS_TIMEOUT_MS });
}

/** A failure report: exit, the tails of stdout and stderr, and the host's log. */
export function describeResult(command: string, result: ProcessResult, dataHome: string): string {
  const tail = (text: string) => text.slice(-3000);
  let log = '';
  try {
    log = readFileSync(join(dataHome, 'opencode', 'log', 'opencode.log'), 'utf8');
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

/**
 * OpenCode installs `@opencode-ai/plugin` into every config folder in the background
 * and waits for it before loading local plugins. A package.json, a lock naming the
 * dependency and a node_modules folder make it skip that install, so no registry is needed.
 */
export function markPluginDependencyInstalled(configDir: string): void {
  const dependencies = { '@opencode-ai/plugin': PLUGIN_VERSION };
  mkdirSync(join(configDir, 'node_modules'), { recursive: true });
  writeFileSync(join(configDir, 'package.json'), JSON.stringify({ dependencies }));
  writeFileSync(
    join(configDir, 'package-lock.json'),
    JSON.stringify({ lockfileVersion: 3, packages: { '': { dependencies } } }),
  );
}

/** An environment with a temporary `HOME` and XDG folders that keeps the host offline. */
export function offlineEnv(home: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: home,
    USERPROFILE: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    TMPDIR: process.env.TMPDIR,
    // No models.dev catalogue, update check, sharing or language-server downloads.
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_SHARE: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
    OPENCODE_DISABLE_CLAUDE_CODE: '1',
    NO_PROXY: '127.0.0.1,localhost',
    ...extra,
  };
}

/** The `mock` provider of `opencode.json`, pointing at a mock model server. */
export function mockProviderConfig(baseURL: string, modelId: string): Record<string, unknown> {
  return {
    mock: {
      npm: '@ai-sdk/openai-compatible',
      name: 'Mock model server',
      options: { baseURL, apiKey: 'mock-key' },
      models: { [modelId]: { name: 'Mock model', tool_call: true } },
    },
  };
}
