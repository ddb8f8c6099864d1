import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { killProcessesOfHome } from '../../test-support/home-processes.js';
import {
  type MemberEnvironment,
  memberEnvironment,
} from '../../test-support/member-environment.js';
import { type CliResult, runCli } from '../../test-support/run-cli.js';
import { writeTestTeam } from '../../test-support/test-team.js';
import { memberShellCommand } from './member-shell.js';

/** Whether this system shows process start times and start environments (Linux `/proc`). */
export const HAS_PROC = existsSync('/proc/self/environ');

/** A temp home, repository and folder for member shells, shared by a test file. */
export interface HostileWorld {
  root: string;
  home: string;
  repo: string;
  /** Where member shells take requests (see `runInsideMember`). */
  shells: string;
  /** `team <args> --home <home>`, as the user (or with `env`). */
  team(args: string[], env?: Record<string, string>, timeoutMs?: number): Promise<CliResult>;
  /** Starts a run of the world's team; members are member shells unless `agent` says otherwise. */
  startRun(agent?: string): Promise<string>;
  /** The `TEAMKIT_*` variables a member's host gave it. */
  env(runId: string, member: string): MemberEnvironment;
  cleanup(): Promise<void>;
}

function git(cwd: string, args: string[]): void {
  execFileSync(
    'git',
    [
      '-c',
      'user.name=Test',
      '-c',
      'user.email=test@teamkit.invalid',
      '-c',
      'commit.gpgsign=false',
      ...args,
    ],
    { cwd, stdio: 'ignore' },
  );
}

/**
 * Creates the world: a home with a team `crew` (lead `lead`, members `w1`, `w2` with
 * worktrees) and a git repository to work in.
 */
export async function createHostileWorld(): Promise<HostileWorld> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'teamkit-hostile-'));
  const home = path.join(root, 'home');
  const repo = path.join(root, 'repo');
  const shells = path.join(root, 'shells');
  await mkdir(home);
  await mkdir(shells);
  await mkdir(repo);
  git(repo, ['init', '-q', '-b', 'main']);
  await writeFile(path.join(repo, 'README.md'), '# project\n');
  git(repo, ['add', 'README.md']);
  git(repo, ['commit', '-q', '-m', 'Initial commit']);
  await writeTestTeam(home, {
    id: 'crew',
    lead: 'lead',
    members: ['lead', 'w1', 'w2'],
    worktrees: ['w1', 'w2'],
  });
  const runs: string[] = [];
  const team = (args: string[], env: Record<string, string> = {}, timeoutMs?: number) =>
    runCli([...args, '--home', home], env, timeoutMs === undefined ? {} : { timeoutMs });
  return {
    root,
    home,
    repo,
    shells,
    team,
    async startRun(agent = memberShellCommand(shells)) {
      const started = await team([
        'run',
        'start',
        'crew',
        '--repo',
        repo,
        '--agent-cmd',
        agent,
        '--json',
      ]);
      if (started.code !== 0)
        throw new Error(`run start failed: ${started.stdout}${started.stderr}`);
      const runId = started.json().runId as string;
      runs.push(runId);
      return runId;
    },
    env: (runId, member) => memberEnvironment(home, runId, member),
    async cleanup() {
      for (const runId of runs) await team(['run', 'stop', runId, '--force', '--json']);
      // A planted run state can keep `run stop` from knowing its members' processes.
      killProcessesOfHome(home);
      await rm(root, { recursive: true, force: true, maxRetries: 3 });
    },
  };
}
