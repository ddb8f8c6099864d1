import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The built CLI the tests run as a subprocess: this package's `dist/bin.js`, or the bin
 * named by `TEAMKIT_TEST_CLI_BIN` (to run a suite against another build).
 */
export const CLI_BIN =
  process.env.TEAMKIT_TEST_CLI_BIN ||
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/bin.js');

/** What one CLI run printed and how it ended. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  /** True when the command was killed for running past its timeout. */
  timedOut?: boolean;
  json: () => Record<string, unknown> & { ok: boolean };
}

/**
 * Runs `team <args>` with a clean identity environment plus `env`; `entry` replaces the
 * built bin (a script and its leading arguments) to run the same line another way.
 */
export function runCli(
  args: readonly string[],
  env: Record<string, string | undefined> = {},
  options: { timeoutMs?: number; cwd?: string; entry?: readonly string[] } = {},
): Promise<CliResult> {
  const base: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  delete base.TEAMKIT_HOME;
  delete base.TEAMKIT_RUN;
  delete base.TEAMKIT_MEMBER;
  delete base.TEAMKIT_TOKEN;
  delete base.TMUX;
  delete base.TMUX_PANE;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...(options.entry ?? [CLI_BIN]), ...args],
      {
        env: { ...base, ...env },
        timeout: options.timeoutMs ?? 30_000,
        cwd: options.cwd,
        maxBuffer: 32 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        const timedOut = error !== null && error.killed === true;
        resolve({ code, stdout, stderr, timedOut, json: () => JSON.parse(stdout) });
      },
    );
  });
}

/** A temp Teamkit home, removed by `cleanup`. */
export async function createTempHome(): Promise<{ home: string; cleanup: () => Promise<void> }> {
  const home = await mkdtemp(path.join(os.tmpdir(), 'teamkit-cli-test-'));
  return { home, cleanup: () => rm(home, { recursive: true, force: true, maxRetries: 3 }) };
}

export { spawn };
