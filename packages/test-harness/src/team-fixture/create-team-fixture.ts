import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TeamkitError } from '@teamkit/team-core';

/** Options for {@link createTeamFixture}. */
export interface TeamFixtureOptions {
  /** Also make the repository a Teamkit project by creating `<repo>/.teamkit/`. */
  project?: boolean;
  /** A prefix for the temp folder's name; `teamkit-fixture-` when omitted. */
  prefix?: string;
}

/** Options for {@link TeamFixture.git}. */
export interface FixtureGitOptions {
  /** Where to run git; the fixture's repository when omitted. */
  cwd?: string;
}

/**
 * A throwaway Teamkit home and git repository in one temp folder. Call `cleanup()`
 * (or use `await using`) to remove everything it made.
 */
export interface TeamFixture {
  /** The temp folder holding everything below; removed by `cleanup()`. */
  readonly root: string;
  /** An empty Teamkit home (`TEAMKIT_HOME`). */
  readonly home: string;
  /** A git repository on branch `main` with one commit and a local user. */
  readonly repo: string;
  /** The project folder (the repository, with `.teamkit/`), when `project` was asked for. */
  readonly project: string | undefined;
  /** The environment a member or command needs to use this home: `TEAMKIT_HOME`. */
  readonly env: Readonly<Record<string, string>>;
  /** Runs git with an argument array (never a shell string) and resolves with its stdout. */
  git(args: readonly string[], options?: FixtureGitOptions): Promise<string>;
  /** Removes the temp folder and everything in it; safe to call twice. */
  cleanup(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Makes a temp Teamkit home and a real git repository (`git init -b main`, a local
 * user, one commit) for tests, optionally with a `.teamkit/` project folder. Throws
 * `GIT_UNAVAILABLE` when git is not installed, and leaves nothing behind on failure.
 */
export async function createTeamFixture(options: TeamFixtureOptions = {}): Promise<TeamFixture> {
  // realpath: git reports resolved paths, and tmpdir() is a symlink on some systems.
  const root = await realpath(await mkdtemp(join(tmpdir(), options.prefix ?? 'teamkit-fixture-')));
  const cleanup = () => rm(root, { recursive: true, force: true, maxRetries: 5 });
  try {
    const home = join(root, 'home');
    const repo = join(root, 'repo');
    await mkdir(home);
    await mkdir(repo);
    const git = (args: readonly string[], gitOptions: FixtureGitOptions = {}) =>
      runGit(args, gitOptions.cwd ?? repo);

    await git(['init', '--quiet', '-b', 'main']);
    await git(['config', 'user.name', 'Teamkit Test']);
    await git(['config', 'user.email', 'teamkit-test@example.invalid']);
    await git(['config', 'commit.gpgsign', 'false']);
    await writeFile(join(repo, 'README.md'), '# Fixture repository\n');
    await git(['add', 'README.md']);
    await git(['commit', '--quiet', '-m', 'Initial commit']);

    let project: string | undefined;
    if (options.project) {
      await mkdir(join(repo, '.teamkit'));
      project = repo;
    }
    return {
      root,
      home,
      repo,
      project,
      env: { TEAMKIT_HOME: home },
      git,
      cleanup,
      [Symbol.asyncDispose]: cleanup,
    };
  } catch (error) {
    await cleanup();
    throw error;
  }
}

function runGit(args: readonly string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      [...args],
      { cwd, env: { ...process.env, GIT_TERMINAL_PROMPT: '0' }, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error === null) return resolve(stdout);
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
          return reject(
            new TeamkitError(
              'GIT_UNAVAILABLE',
              `Could not start git in ${cwd}: git is not installed or not on PATH, or the folder is missing.`,
              { cause: error, details: { cwd } },
            ),
          );
        }
        reject(
          new TeamkitError(
            'GIT_FAILED',
            `git ${args.join(' ')} failed: ${stderr.trim() || error.message}`,
            {
              cause: error,
              details: { args: [...args], cwd, exitCode: error.code },
            },
          ),
        );
      },
    );
  });
}
