import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findOnPath, packageBinPath, programOverrideVariable } from '@teamkit/agent-clis';
import { TeamkitError } from '@teamkit/team-core';
import { AGENT_CLI_PACKAGES, type AgentCliName, isAgentCliName } from './agent-cli-name.js';

/** The environment variable that turns a missing program into a test failure instead of a skip. */
export const REQUIRE_PROGRAMS_ENV = 'TEAMKIT_TEST_REQUIRE_PROGRAMS';

/** An agent CLI that was found and answered `--version`. */
export interface FoundAgentCli {
  found: true;
  name: AgentCliName;
  /** The executable to spawn (a native binary or a script with a shebang). */
  path: string;
  /** The first line `--version` printed, e.g. `2.1.328 (Claude Code)`. */
  version: string;
  /** Where it was found: an explicit path, an installed npm package, or PATH. */
  source: 'env' | 'package' | 'path';
}

/** An agent CLI that is not available here, and why. */
export interface MissingAgentCli {
  found: false;
  name: AgentCliName;
  /** Why it is missing, and how to install it. */
  reason: string;
}

/** The answer of {@link findAgentCli}. */
export type AgentCliLocation = FoundAgentCli | MissingAgentCli;

/** Options of {@link findAgentCli}. */
export interface FindAgentCliOptions {
  /**
   * Folders to start the npm package search from; each folder and its parents are tried,
   * with their `tools/agents` folder first. Defaults to the current folder and this package.
   */
  searchFrom?: string[];
  /** Also look the command up on PATH (after the packages); `true` by default. */
  usePath?: boolean;
  /**
   * Throw instead of answering `found: false`. Defaults to whether
   * `TEAMKIT_TEST_REQUIRE_PROGRAMS=1` is set, as CI does.
   */
  required?: boolean;
  /** The environment read for PATH and the overrides; `process.env` by default. */
  env?: NodeJS.ProcessEnv;
}

function packageRoots(start: string): string[] {
  const roots: string[] = [];
  let dir = resolve(start);
  for (;;) {
    roots.push(join(dir, 'tools', 'agents'), dir);
    const parent = dirname(dir);
    if (parent === dir) return roots;
    dir = parent;
  }
}

function binFromPackage(name: AgentCliName, root: string): string | undefined {
  const { packageName, bin } = AGENT_CLI_PACKAGES[name];
  const path = packageBinPath(packageName, bin, root);
  return path !== undefined && existsSync(path) ? path : undefined;
}

function probeVersion(path: string, env: NodeJS.ProcessEnv): { version?: string; error?: string } {
  const probe = spawnSync(path, ['--version'], {
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (probe.error || probe.status !== 0) {
    const detail = probe.error ? String(probe.error) : `exit ${probe.status}: ${probe.stderr}`;
    return { error: detail.trim().slice(0, 500) };
  }
  const version = probe.stdout.trim().split('\n')[0]?.trim() ?? '';
  return version === '' ? { error: 'it printed no version' } : { version };
}

function defaultSearchFrom(): string[] {
  return [process.cwd(), dirname(fileURLToPath(import.meta.url))];
}

function locate(name: AgentCliName, options: FindAgentCliOptions): AgentCliLocation {
  const env = options.env ?? process.env;
  const override = env[programOverrideVariable(name)];
  const candidates: { path: string; source: FoundAgentCli['source'] }[] = [];
  if (override) candidates.push({ path: resolve(override), source: 'env' });
  const seen = new Set<string>();
  for (const start of options.searchFrom ?? defaultSearchFrom()) {
    for (const root of packageRoots(start)) {
      if (seen.has(root)) continue;
      seen.add(root);
      const path = binFromPackage(name, root);
      if (path) candidates.push({ path, source: 'package' });
    }
  }
  if (options.usePath !== false) {
    const path = findOnPath(AGENT_CLI_PACKAGES[name].bin, env);
    if (path) candidates.push({ path, source: 'path' });
  }
  const failures: string[] = [];
  for (const candidate of candidates) {
    const { version, error } = probeVersion(candidate.path, env);
    if (version !== undefined) return { found: true, name, version, ...candidate };
    failures.push(`${candidate.path} cannot start here (${error})`);
    // An explicit override that fails is the answer: never fall back behind the user's back.
    if (candidate.source === 'env') break;
  }
  const { packageName, checkedVersion } = AGENT_CLI_PACKAGES[name];
  const install =
    name === 'opencode'
      ? `it is the opencode-ai dev dependency: run pnpm install`
      : `run pnpm agents:install (npm ${packageName}@${checkedVersion} in tools/agents)`;
  const reason =
    failures.length > 0
      ? `${name}: ${failures.join('; ')}`
      : `${name} is not installed (no ${packageName} package found and no ${name} on PATH): ${install}`;
  return { found: false, name, reason };
}

/**
 * Locates an agent CLI (`claude`, `codex`, `opencode`, `gemini`) and asks it for its version.
 * Looks at `TEAMKIT_<NAME>_BIN` first, then the npm package in `tools/agents` or
 * `node_modules` of the current folder, this package and their parents, then PATH.
 * Answers `found: false` with the reason when it is missing; with
 * `TEAMKIT_TEST_REQUIRE_PROGRAMS=1` (or `required: true`) a missing CLI throws instead, so
 * CI fails where a developer's run would skip.
 */
export function findAgentCli(
  name: AgentCliName,
  options: FindAgentCliOptions = {},
): AgentCliLocation {
  if (!isAgentCliName(name)) {
    throw new TeamkitError(
      'INVALID_INPUT',
      `Unknown agent CLI "${String(name)}": use claude, codex, opencode or gemini.`,
      { details: { name } },
    );
  }
  const location = locate(name, options);
  const required = options.required ?? (options.env ?? process.env)[REQUIRE_PROGRAMS_ENV] === '1';
  if (!location.found && required) {
    throw new Error(`${location.reason} (${REQUIRE_PROGRAMS_ENV}=1 makes this a failure)`);
  }
  return location;
}
