import { rm } from 'node:fs/promises';
import { TeamkitError } from '../errors/index.js';
import type { GitRunner } from './git-runner.js';

/** What merging one commit into a checkout did. */
export type MergeOutcome =
  | { kind: 'merged'; commit: string }
  | { kind: 'up-to-date' }
  | { kind: 'conflict'; files: string[]; message: string };

const FULL_COMMIT = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

function checkRefName(ref: string): string {
  if (ref.length === 0 || ref.startsWith('-') || /[\0\s]/.test(ref)) {
    throw new TeamkitError('INVALID_INPUT', `Refused git ref ${JSON.stringify(ref)}.`, {
      details: { ref },
    });
  }
  return ref;
}

/**
 * Checks a branch name the user gave (`--into`) with git's own rules
 * (`git check-ref-format --branch`): `INVALID_INPUT` when git would refuse it.
 */
export async function assertBranchName(git: GitRunner, cwd: string, branch: string): Promise<void> {
  checkRefName(branch);
  const result = await git.run(['check-ref-format', '--branch', branch], {
    cwd,
    allowFailure: true,
  });
  if (result.exitCode !== 0) {
    throw new TeamkitError('INVALID_INPUT', `"${branch}" is not a valid branch name.`, {
      details: { branch },
    });
  }
}

/** The commit a local branch points at; `undefined` when there is no such branch. */
export async function branchHead(
  git: GitRunner,
  cwd: string,
  branch: string,
): Promise<string | undefined> {
  const result = await git.run(
    ['rev-parse', '--verify', '--quiet', `refs/heads/${checkRefName(branch)}^{commit}`],
    { cwd, allowFailure: true },
  );
  const commit = result.stdout.trim();
  return result.exitCode === 0 && FULL_COMMIT.test(commit) ? commit : undefined;
}

/** The full id of a commit-ish, or `undefined` when it names no commit. */
export async function resolveCommit(
  git: GitRunner,
  cwd: string,
  ref: string,
): Promise<string | undefined> {
  const result = await git.run(
    ['rev-parse', '--verify', '--quiet', `${checkRefName(ref)}^{commit}`],
    {
      cwd,
      allowFailure: true,
    },
  );
  const commit = result.stdout.trim();
  return result.exitCode === 0 && FULL_COMMIT.test(commit) ? commit : undefined;
}

/** The branch checked out in `cwd`; `undefined` on a detached HEAD. */
export async function currentBranch(git: GitRunner, cwd: string): Promise<string | undefined> {
  const result = await git.run(['symbolic-ref', '--quiet', '--short', 'HEAD'], {
    cwd,
    allowFailure: true,
  });
  const branch = result.stdout.trim();
  return result.exitCode === 0 && branch !== '' ? branch : undefined;
}

/** True when `ancestor` is reachable from `descendant` (or is it). */
export async function isAncestor(
  git: GitRunner,
  cwd: string,
  ancestor: string,
  descendant: string,
): Promise<boolean> {
  const result = await git.run(
    ['merge-base', '--is-ancestor', checkRefName(ancestor), checkRefName(descendant)],
    { cwd, allowFailure: true },
  );
  if (result.exitCode === 0) return true;
  if (result.exitCode === 1) return false;
  throw new TeamkitError(
    'GIT_FAILED',
    `git merge-base --is-ancestor ${ancestor} ${descendant} failed: ${result.stderr.trim()}`,
    { details: { cwd, ancestor, descendant, stderr: result.stderr } },
  );
}

/** Paths `git status --porcelain` lists in a checkout (changed, staged or untracked). */
export async function changedPaths(git: GitRunner, cwd: string): Promise<string[]> {
  const { stdout } = await git.run(['status', '--porcelain', '--untracked-files=all'], { cwd });
  return stdout
    .split('\n')
    .filter((line) => line.length > 3)
    .map((line) => line.slice(3));
}

/** `{ sha, subject }` of the commits in `from..to`, oldest first (at most `limit`). */
export async function commitsBetween(
  git: GitRunner,
  cwd: string,
  from: string,
  to: string,
  limit = 200,
): Promise<{ sha: string; subject: string }[]> {
  const { stdout } = await git.run(
    [
      'log',
      '--reverse',
      `--max-count=${limit}`,
      '--format=%H%x1f%s',
      `${checkRefName(from)}..${checkRefName(to)}`,
      '--',
    ],
    { cwd },
  );
  return stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const [sha = '', subject = ''] = line.split('\x1f');
      return { sha, subject };
    });
}

/**
 * `-c` arguments giving git a committer when the repository and the user configured
 * none, so Teamkit's merge commits never fail for want of a name; otherwise nothing, and
 * the user's own identity is used.
 */
export async function fallbackIdentity(git: GitRunner, cwd: string): Promise<string[]> {
  const result = await git.run(['var', 'GIT_COMMITTER_IDENT'], { cwd, allowFailure: true });
  if (result.exitCode === 0) return [];
  return ['-c', 'user.name=Teamkit', '-c', 'user.email=teamkit@localhost.invalid'];
}

async function unmergedPaths(git: GitRunner, cwd: string): Promise<string[]> {
  const { stdout } = await git.run(['diff', '--name-only', '--diff-filter=U'], { cwd });
  return stdout.split('\n').filter((line) => line !== '');
}

async function mergeInProgress(git: GitRunner, cwd: string): Promise<boolean> {
  const result = await git.run(['rev-parse', '--verify', '--quiet', 'MERGE_HEAD'], {
    cwd,
    allowFailure: true,
  });
  return result.exitCode === 0;
}

/**
 * Merges `commit` into the branch checked out in `cwd`. Already contained: `up-to-date`,
 * nothing written. A merge that stops (conflicting files, or local changes it would
 * overwrite) is aborted so the checkout is exactly as before, and reported as `conflict`
 * with the files. Never forces anything. `noFastForward` always makes a merge commit.
 */
export async function mergeCommitInto(
  git: GitRunner,
  cwd: string,
  commit: string,
  options: { message: string; noFastForward: boolean },
): Promise<MergeOutcome> {
  checkRefName(commit);
  if (await isAncestor(git, cwd, commit, 'HEAD')) return { kind: 'up-to-date' };
  if (await mergeInProgress(git, cwd)) {
    // Someone else's merge is under way here: aborting ours would throw away theirs.
    return {
      kind: 'conflict',
      files: await unmergedPaths(git, cwd),
      message: `A merge is already in progress in ${cwd}; finish it (git commit) or abort it (git merge --abort) first.`,
    };
  }
  const identity = await fallbackIdentity(git, cwd);
  const result = await git.run(
    [
      ...identity,
      'merge',
      options.noFastForward ? '--no-ff' : '--ff',
      '--no-edit',
      '-m',
      options.message,
      commit,
    ],
    { cwd, allowFailure: true },
  );
  if (result.exitCode === 0) {
    const head = await git.run(['rev-parse', 'HEAD'], { cwd });
    return { kind: 'merged', commit: head.stdout.trim() };
  }
  const message = (result.stderr.trim() || result.stdout.trim()).slice(0, 2_000);
  if (await mergeInProgress(git, cwd)) {
    const files = await unmergedPaths(git, cwd);
    await git.run(['merge', '--abort'], { cwd });
    return { kind: 'conflict', files, message };
  }
  // git refused before starting (local changes it would overwrite): it names the files.
  const files = [...message.matchAll(/^\t(.+)$/gm)].map((match) => match[1] as string);
  return { kind: 'conflict', files, message };
}

/** Adds a detached scratch worktree at `commit` for work that must not touch any checkout. */
export async function addScratchWorktree(
  git: GitRunner,
  repoRoot: string,
  folder: string,
  commit: string,
): Promise<void> {
  await git.run(['worktree', 'add', '--detach', folder, checkRefName(commit)], { cwd: repoRoot });
}

/** Removes a scratch worktree made by {@link addScratchWorktree}; a missing one is fine. */
export async function removeScratchWorktree(
  git: GitRunner,
  repoRoot: string,
  folder: string,
): Promise<void> {
  await git.run(['worktree', 'remove', '--force', folder], { cwd: repoRoot, allowFailure: true });
  await rm(folder, { recursive: true, force: true });
  await git.run(['worktree', 'prune'], { cwd: repoRoot });
}

/**
 * Moves a branch that no checkout has checked out from `expected` to `next`, atomically
 * and only if it still points at `expected` (`REVISION_CONFLICT` otherwise); creates it
 * when `expected` is `undefined` and it does not exist yet.
 */
export async function moveBranch(
  git: GitRunner,
  repoRoot: string,
  branch: string,
  next: string,
  expected: string | undefined,
  reason: string,
): Promise<void> {
  checkRefName(branch);
  const args =
    expected === undefined
      ? ['branch', '--no-track', branch, checkRefName(next)]
      : ['update-ref', '-m', reason, `refs/heads/${branch}`, checkRefName(next), expected];
  const result = await git.run(args, { cwd: repoRoot, allowFailure: true });
  if (result.exitCode !== 0) {
    throw new TeamkitError(
      'REVISION_CONFLICT',
      `Branch ${branch} changed while the work was being merged (${result.stderr.trim()}); nothing was moved. Run the merge again.`,
      { details: { branch, expected, next, stderr: result.stderr } },
    );
  }
}
