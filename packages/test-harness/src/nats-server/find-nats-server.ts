import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { REQUIRE_PROGRAMS_ENV } from '../agent-cli/find-agent-cli.js';

/** Where {@link findNatsServer} found `nats-server`, or why it did not. */
export type NatsServerLocation =
  | { found: true; path: string; version: string }
  | { found: false; reason: string };

/** Options of {@link findNatsServer}. */
export interface FindNatsServerOptions {
  /**
   * Throw instead of answering `found: false`. Defaults to whether
   * `TEAMKIT_TEST_REQUIRE_PROGRAMS=1` is set, as CI does.
   */
  required?: boolean;
  /** The environment read for PATH and `NATS_SERVER_BIN`; `process.env` by default. */
  env?: NodeJS.ProcessEnv;
}

// Debian installs the server in /usr/sbin, which is not on every user's PATH.
const EXTRA_FOLDERS = ['/usr/sbin', '/usr/local/sbin', '/usr/local/bin'];

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function candidates(env: NodeJS.ProcessEnv): string[] {
  if (env.NATS_SERVER_BIN !== undefined && env.NATS_SERVER_BIN !== '') return [env.NATS_SERVER_BIN];
  const folders = [...(env.PATH ?? '').split(delimiter), ...EXTRA_FOLDERS].filter(Boolean);
  return [...new Set(folders)].map((folder) => join(folder, 'nats-server'));
}

/**
 * Finds the `nats-server` program (`NATS_SERVER_BIN`, else PATH and the sbin folders) and
 * asks its version. Tests that need a real server skip when it is missing, saying why;
 * with `TEAMKIT_TEST_REQUIRE_PROGRAMS=1` (CI) the absence throws instead.
 */
export function findNatsServer(options: FindNatsServerOptions = {}): NatsServerLocation {
  const env = options.env ?? process.env;
  const required = options.required ?? env[REQUIRE_PROGRAMS_ENV] === '1';
  for (const path of candidates(env)) {
    if (!isExecutable(path)) continue;
    const run = spawnSync(path, ['--version'], { encoding: 'utf8', timeout: 10_000 });
    const version = /v?([0-9]+\.[0-9]+\.[0-9]+)/.exec(`${run.stdout}${run.stderr}`)?.[1];
    if (run.status === 0 && version !== undefined) return { found: true, path, version };
  }
  const reason =
    'nats-server is not installed (apt-get install -y nats-server, or set NATS_SERVER_BIN)';
  if (required) throw new Error(`${REQUIRE_PROGRAMS_ENV}=1 but ${reason}`);
  return { found: false, reason };
}
