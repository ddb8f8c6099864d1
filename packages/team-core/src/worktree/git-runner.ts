import { execFile } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { TeamkitError } from '../errors/index.js';

/** What one git call returned. */
export interface GitResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** Options for one {@link GitRunner.run} call. */
export interface GitRunOptions {
  /** The folder git runs in. */
  cwd: string;
  /** Return a non-zero exit instead of throwing `GIT_FAILED`. */
  allowFailure?: boolean;
}

/** The one seam through which Teamkit runs git: argument arrays only, never a shell. */
export interface GitRunner {
  run(args: string[], options: GitRunOptions): Promise<GitResult>;
}

/** Options for {@link createGitRunner}. */
export interface GitRunnerOptions {
  /** The git executable; default `git` from PATH. */
  git?: string;
  /** Extra environment; repository-selecting variables such as GIT_DIR are always removed. */
  env?: NodeJS.ProcessEnv;
}

// Inherited from a git hook or an outer tool, these would point git at another repository.
const REPOSITORY_VARIABLES = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_COMMON_DIR',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_NAMESPACE',
];

/**
 * Creates the git runner: `execFile(git, args, { cwd })`, with English messages,
 * no prompts, and GIT_DIR and friends removed. A missing git is `GIT_UNAVAILABLE`;
 * a non-zero exit is `GIT_FAILED` with the arguments, exit code and stderr.
 */
export function createGitRunner(options: GitRunnerOptions = {}): GitRunner {
  const git = options.git ?? 'git';
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...options.env,
    LC_ALL: 'C',
    GIT_TERMINAL_PROMPT: '0',
  };
  for (const name of REPOSITORY_VARIABLES) delete env[name];
  return {
    run(args, runOptions) {
      return new Promise((resolve, reject) => {
        execFile(
          git,
          args,
          { cwd: runOptions.cwd, env, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' },
          (error, stdout, stderr) => {
            if (error === null) {
              resolve({ stdout, stderr, exitCode: 0 });
              return;
            }
            const code = (error as NodeJS.ErrnoException).code;
            if (code === 'ENOENT') {
              // Node reports a missing cwd and a missing executable alike.
              stat(runOptions.cwd).then(
                () =>
                  reject(
                    new TeamkitError(
                      'GIT_UNAVAILABLE',
                      `git could not be started (${git}); install git or put it on PATH.`,
                      { cause: error, details: { git, cwd: runOptions.cwd } },
                    ),
                  ),
                () =>
                  reject(
                    new TeamkitError(
                      'NOT_A_GIT_REPO',
                      `${runOptions.cwd} does not exist, so git cannot run there.`,
                      { cause: error, details: { cwd: runOptions.cwd } },
                    ),
                  ),
              );
              return;
            }
            const exitCode = typeof error.code === 'number' ? error.code : -1;
            if (runOptions.allowFailure === true && exitCode !== -1) {
              resolve({ stdout, stderr, exitCode });
              return;
            }
            reject(
              new TeamkitError(
                'GIT_FAILED',
                `git ${args.join(' ')} failed (exit ${exitCode}): ${stderr.trim() || error.message}`,
                { cause: error, details: { args, cwd: runOptions.cwd, exitCode, stderr } },
              ),
            );
          },
        );
      });
    },
  };
}
