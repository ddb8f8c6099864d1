import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { isSameFolder } from '@teamkit/team-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killProcessesOfHome, processesOfHome } from '../../test-support/home-processes.js';
import { CLI_BIN, createTempHome, runCli } from '../../test-support/run-cli.js';

// `team run start` killed with SIGKILL at random moments: after `team run stop`, no
// process of the run is left and no worktree exists that the run does not record.

const TRIALS = 16;
let home: string;
let cleanup: () => Promise<void>;
let repo: string;

const git = (...args: string[]) =>
  execFileSync('git', args, { cwd: repo, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

beforeAll(async () => {
  ({ home, cleanup } = await createTempHome());
  repo = path.join(home, 'repo');
  mkdirSync(repo);
  git('init', '-q', '-b', 'main');
  git(
    '-c',
    'user.name=t',
    '-c',
    'user.email=t@teamkit.invalid',
    'commit',
    '-q',
    '--allow-empty',
    '-m',
    'init',
  );
  const folder = path.join(home, 'teams', 'crew');
  mkdirSync(folder, { recursive: true });
  const names = ['lead', 'a', 'b', 'c'];
  writeFileSync(
    path.join(folder, 'team.yaml'),
    `id: crew\nname: crew\nlead: lead\nmembers:\n${names
      .map(
        (name) =>
          `  - name: ${name}\n    prompt: You are ${name}.\n    worktree: ${name !== 'lead'}\n`,
      )
      .join('')}`,
  );
  writeFileSync(path.join(folder, 'policy.yaml'), 'bounds:\n  maxParallelMembers: 2\n');
  writeFileSync(
    path.join(home, 'config.json'),
    JSON.stringify({ version: 1, teams: [{ path: '@teams/crew' }] }),
  );
});
afterAll(async () => {
  killProcessesOfHome(home);
  await cleanup();
});

function worktreesOnDisk(): string[] {
  const root = path.join(home, 'worktrees');
  if (!existsSync(root)) return [];
  return readdirSync(root).flatMap((run) =>
    readdirSync(path.join(root, run)).map((member) => path.join(root, run, member)),
  );
}

function registeredWorktrees(): string[] {
  return git('worktree', 'list', '--porcelain')
    .split('\n')
    .filter((line) => line.startsWith('worktree '))
    .map((line) => line.slice('worktree '.length))
    .filter((entry) => !isSameFolder(entry, repo));
}

/**
 * Starts a run and SIGKILLs the start `delayMs` after the run's folder appears (before
 * that, Node is only loading; the run is recorded first thing), or at once if it ends.
 */
async function startAndKill(delayMs: number, before: ReadonlySet<string>): Promise<void> {
  const child = spawn(
    process.execPath,
    [
      CLI_BIN,
      'run',
      'start',
      'crew',
      '--home',
      home,
      '--repo',
      repo,
      '--no-tmux',
      '--agent-cmd',
      'sleep 600',
    ],
    {
      stdio: 'ignore',
      env: {
        ...process.env,
        TEAMKIT_HOME: '',
        TEAMKIT_MEMBER: '',
        TEAMKIT_RUN: '',
        TEAMKIT_TOKEN: '',
        TMUX: '',
      },
    },
  );
  let exited = false;
  const done = new Promise<void>((resolve) =>
    child.once('exit', () => {
      exited = true;
      resolve();
    }),
  );
  const runtime = path.join(home, 'runtime');
  while (!exited && !readdirSync(runtime).some((id) => !before.has(id))) await delay(2);
  await delay(delayMs);
  child.kill('SIGKILL');
  await done;
}

describe.skipIf(process.platform !== 'linux')('team run start killed at random moments', () => {
  it(`leaves nothing behind after run stop (${TRIALS} trials)`, async () => {
    // How long a whole start takes here, so the kills land across all of it.
    const ids = () => new Set(readdirSync(path.join(home, 'runtime')));
    mkdirSync(path.join(home, 'runtime'), { recursive: true });
    const t0 = Date.now();
    const watch = (async () => {
      while (ids().size === 0) await delay(2);
      return Date.now();
    })();
    const full = await runCli(
      [
        'run',
        'start',
        'crew',
        '--home',
        home,
        '--repo',
        repo,
        '--no-tmux',
        '--agent-cmd',
        'sleep 600',
        '--json',
      ],
      {},
      { timeoutMs: 60_000 },
    );
    expect(full.code, full.stderr).toBe(0);
    const span = Date.now() - (await watch);
    console.info(`[kill trials] node start ${Date.now() - t0 - span} ms`);
    await runCli(
      ['run', 'stop', full.json().runId as string, '--force', '--home', home],
      {},
      { timeoutMs: 60_000 },
    );
    const outcomes: string[] = [];
    for (let trial = 0; trial < TRIALS; trial += 1) {
      const before = ids();
      const killAt = Math.floor(((trial + Math.random()) / TRIALS) * span);
      await startAndKill(killAt, before);
      const runs = readdirSync(path.join(home, 'runtime')).filter((id) => !before.has(id));
      for (const runId of runs) {
        const hasState = existsSync(path.join(home, 'runtime', runId, 'state.json'));
        outcomes.push(`${killAt}ms:${hasState ? 'state' : 'no-state'}`);
        if (!hasState) continue;
        const stop = await runCli(
          ['run', 'stop', runId, '--force', '--home', home, '--json'],
          {},
          { timeoutMs: 60_000 },
        );
        expect(stop.code, `trial ${trial} (${killAt} ms): ${stop.stdout}${stop.stderr}`).toBe(0);
      }
      // The background supervisor of a start that got that far goes with the stop too.
      const deadline = Date.now() + 15_000;
      while (processesOfHome(home).length > 0 && Date.now() < deadline) await delay(100);
      expect(processesOfHome(home), `trial ${trial} (${killAt} ms)`).toEqual([]);
      expect(worktreesOnDisk(), `trial ${trial} (${killAt} ms)`).toEqual([]);
      expect(registeredWorktrees(), `trial ${trial} (${killAt} ms)`).toEqual([]);
    }
    console.info(`[kill trials] start ${span} ms; ${outcomes.join(' ')}`);
  }, 600_000);
});
