import { lstat, mkdir, readdir, realpath, rm, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { TeamkitError } from '../errors/index.js';
import { NAME_PATTERN } from '../schema/names.js';
import { assertSafeSegment, resolveContainedRealPath } from '../storage/contained-path.js';
import { assertRunId, runPaths } from '../storage/teamkit-home.js';
import { createGitRunner, type GitRunner } from './git-runner.js';

/** Which member worktree a call is about. */
export interface MemberWorktreeTarget {
  /** The Teamkit home; worktrees live in `<home>/worktrees/<runId>/<member>`. */
  home: string;
  /** Any folder inside the repository the worktree belongs to. */
  repoRoot: string;
  runId: string;
  member: string;
  /** The git seam; defaults to {@link createGitRunner}(). */
  git?: GitRunner;
}

/** Input of {@link createMemberWorktree}. */
export interface CreateMemberWorktreeInput extends MemberWorktreeTarget {
  /** The commit-ish the member starts from; default `HEAD` of the repository. */
  baseRef?: string;
}

/** A member worktree that exists. */
export interface MemberWorktree {
  path: string;
  branch: string;
  /** The repository's top-level folder. */
  repoRoot: string;
  baseRef: string;
  /** The commit `baseRef` resolved to when the worktree was made. */
  baseCommit: string;
}

/** A commit that exists only on a member's branch. */
export interface UnsavedCommit {
  sha: string;
  subject: string;
}

/** Work that removing a worktree would lose. */
export interface UnsavedWork {
  /** Changed, staged or untracked paths (`git status --porcelain` lines), or files of an unregistered folder. */
  files: string[];
  /** Commits on the branch not reachable from the base ref nor from any remote-tracking branch. */
  commits: UnsavedCommit[];
}

/** Input of {@link removeMemberWorktree}. */
export interface RemoveMemberWorktreeInput extends MemberWorktreeTarget {
  /**
   * The ref the branch's work must be merged into to count as saved. Without it, a
   * commit counts as saved when any other local branch or remote-tracking branch has it.
   */
  baseRef?: string;
  /** Remove even with unsaved work; the report says what was discarded. */
  force?: boolean;
  /** Also delete the member's branch (kept by default). */
  deleteBranch?: boolean;
  /**
   * Delete the member's branch when it holds no commit beyond `baseRef` (nothing was
   * done on it), once the worktree is removed; a branch with work is kept.
   */
  deleteEmptyBranch?: boolean;
}

/** What {@link removeMemberWorktree} did. */
export interface RemoveMemberWorktreeReport {
  path: string;
  branch: string;
  /** True when a worktree or folder was removed (false when there was none). */
  removed: boolean;
  branchDeleted: boolean;
  /** The unsaved work that force removed (commits only when the branch was deleted too). */
  discarded: UnsavedWork;
}

/** The branch of a member's worktree: `teamkit/<first 8 characters of the run id>/<member>`. */
export function memberBranchName(runId: string, member: string): string {
  return `teamkit/${assertRunId(runId).slice(0, 8)}/${checkMemberName(member)}`;
}

function checkMemberName(member: string): string {
  assertSafeSegment(member, 'member name');
  if (!NAME_PATTERN.test(member) || member.length > 64) {
    throw new TeamkitError(
      'INVALID_INPUT',
      `Refused member name ${JSON.stringify(member)}: member names are lowercase kebab-case.`,
      { details: { member } },
    );
  }
  return member;
}

function checkRef(ref: string): string {
  if (ref.length === 0 || ref.startsWith('-') || /[\0\s]/.test(ref)) {
    throw new TeamkitError('INVALID_INPUT', `Refused git ref ${JSON.stringify(ref)}.`, {
      details: { ref },
    });
  }
  return ref;
}

async function exists(target: string): Promise<boolean> {
  try {
    await lstat(target);
    return true;
  } catch {
    return false;
  }
}

/** Resolves the repository's top-level folder, or throws `NOT_A_GIT_REPO`. */
export async function resolveRepoRoot(git: GitRunner, folder: string): Promise<string> {
  const result = await git.run(['rev-parse', '--show-toplevel'], {
    cwd: folder,
    allowFailure: true,
  });
  const top = result.stdout.trim();
  if (result.exitCode !== 0 || top === '') {
    throw new TeamkitError(
      'NOT_A_GIT_REPO',
      `${folder} is not inside a git work tree (${result.stderr.trim() || 'no top level'}). Run the team from a git repository.`,
      { details: { folder, stderr: result.stderr } },
    );
  }
  return top;
}

/** One entry of `git worktree list --porcelain`. */
export interface ListedWorktree {
  path: string;
  branch?: string;
  head?: string;
  prunable: boolean;
  locked: boolean;
}

/** Lists a repository's worktrees; the first is the main checkout. */
export async function listGitWorktrees(
  git: GitRunner,
  repoRoot: string,
): Promise<ListedWorktree[]> {
  const { stdout } = await git.run(['worktree', 'list', '--porcelain'], { cwd: repoRoot });
  const entries: ListedWorktree[] = [];
  for (const block of stdout.split('\n\n')) {
    const lines = block.split('\n').filter((line) => line !== '');
    const head = lines.find((line) => line.startsWith('worktree '));
    if (head === undefined) continue;
    const branch = lines.find((line) => line.startsWith('branch '))?.slice('branch '.length);
    entries.push({
      path: head.slice('worktree '.length),
      branch: branch?.replace(/^refs\/heads\//, ''),
      head: lines.find((line) => line.startsWith('HEAD '))?.slice('HEAD '.length),
      prunable: lines.some((line) => line.startsWith('prunable')),
      locked: lines.some((line) => line.startsWith('locked')),
    });
  }
  return entries;
}

async function samePath(a: string, b: string): Promise<boolean> {
  if (path.resolve(a) === path.resolve(b)) return true;
  const [ra, rb] = await Promise.all([realpath(a).catch(() => a), realpath(b).catch(() => b)]);
  return path.resolve(ra) === path.resolve(rb);
}

async function branchExists(git: GitRunner, repoRoot: string, branch: string): Promise<boolean> {
  const result = await git.run(['show-ref', '--verify', '--quiet', `refs/heads/${branch}`], {
    cwd: repoRoot,
    allowFailure: true,
  });
  return result.exitCode === 0;
}

/**
 * Creates a member's worktree: validates the repository, prunes stale worktree
 * metadata, then `git worktree add -b teamkit/<run-short>/<member> <home>/worktrees/<runId>/<member> <base>`.
 * A path or branch that is already taken is `WORKTREE_COLLISION`; nothing falls back
 * to the main checkout.
 */
export async function createMemberWorktree(
  input: CreateMemberWorktreeInput,
): Promise<MemberWorktree> {
  const git = input.git ?? createGitRunner();
  const branch = memberBranchName(input.runId, input.member);
  const target = runPaths(input.home, input.runId).worktree(input.member);
  const baseRef = checkRef(input.baseRef ?? 'HEAD');
  const repoRoot = await resolveRepoRoot(git, input.repoRoot);
  await git.run(['worktree', 'prune'], { cwd: repoRoot });

  const resolved = await git.run(['rev-parse', '--verify', '--quiet', `${baseRef}^{commit}`], {
    cwd: repoRoot,
    allowFailure: true,
  });
  const baseCommit = resolved.stdout.trim();
  if (resolved.exitCode !== 0 || baseCommit === '') {
    throw new TeamkitError(
      'INVALID_INPUT',
      `The base ref ${JSON.stringify(baseRef)} is not a commit in ${repoRoot}.`,
      { details: { baseRef, repoRoot } },
    );
  }
  const registered = await listGitWorktrees(git, repoRoot);
  const onPath = await Promise.all(registered.map((entry) => samePath(entry.path, target)));
  if ((await exists(target)) || onPath.some(Boolean)) {
    throw new TeamkitError(
      'WORKTREE_COLLISION',
      `The worktree folder ${target} already exists; remove it (removeMemberWorktree or pruneOrphans) or use another run.`,
      { details: { path: target, branch, reason: 'path-exists' } },
    );
  }
  if (await branchExists(git, repoRoot, branch)) {
    const holder = registered.find((entry) => entry.branch === branch);
    throw new TeamkitError(
      'WORKTREE_COLLISION',
      `The branch ${branch} already exists${holder ? ` and is checked out at ${holder.path}` : ''}; delete or rename it first.`,
      { details: { path: target, branch, reason: 'branch-exists', usedBy: holder?.path } },
    );
  }
  await mkdir(path.dirname(target), { recursive: true });
  await git.run(['worktree', 'add', '-b', branch, target, baseCommit], { cwd: repoRoot });
  return { path: target, branch, repoRoot, baseRef, baseCommit };
}

async function listFolderFiles(folder: string, limit = 50): Promise<string[]> {
  const found: string[] = [];
  const walk = async (relative: string): Promise<void> => {
    if (found.length >= limit) return;
    const entries = await readdir(path.join(folder, relative), { withFileTypes: true }).catch(
      () => [],
    );
    for (const entry of entries) {
      if (found.length >= limit) return;
      const child = path.join(relative, entry.name);
      if (entry.isDirectory()) await walk(child);
      else found.push(child);
    }
  };
  await walk('');
  return found;
}

/**
 * Finds what removing a worktree would lose: uncommitted or untracked files, and commits
 * on `branch` reachable neither from `baseRef` (or, without it, any other local branch)
 * nor from any remote-tracking branch.
 */
export async function findUnsavedWork(input: {
  git: GitRunner;
  repoRoot: string;
  worktreePath: string;
  branch: string;
  baseRef?: string;
  registered: boolean;
}): Promise<UnsavedWork> {
  const { git } = input;
  const files: string[] = [];
  if (await exists(input.worktreePath)) {
    if (input.registered) {
      const status = await git.run(['status', '--porcelain', '--untracked-files=all'], {
        cwd: input.worktreePath,
      });
      files.push(...status.stdout.split('\n').filter((line) => line.trim() !== ''));
    } else {
      files.push(...(await listFolderFiles(input.worktreePath)));
    }
  }
  const commits: UnsavedCommit[] = [];
  if (await branchExists(git, input.repoRoot, input.branch)) {
    const exclude =
      input.baseRef === undefined
        ? // --exclude patterns for --branches are written without the refs/heads/ prefix.
          ['--not', `--exclude=${input.branch}`, '--branches', '--remotes']
        : ['--not', checkRef(input.baseRef), '--remotes'];
    const log = await git.run(
      ['log', '--format=%H%x1f%s', `refs/heads/${input.branch}`, ...exclude, '--'],
      { cwd: input.repoRoot },
    );
    for (const line of log.stdout.split('\n')) {
      if (line === '') continue;
      const [sha = '', subject = ''] = line.split('\x1f');
      commits.push({ sha, subject });
    }
  }
  return { files, commits };
}

function describeUnsaved(work: UnsavedWork): string {
  const parts: string[] = [];
  if (work.files.length > 0) {
    parts.push(
      `${work.files.length} uncommitted file(s): ${work.files.slice(0, 10).join(', ')}${work.files.length > 10 ? ', …' : ''}`,
    );
  }
  if (work.commits.length > 0) {
    parts.push(
      `${work.commits.length} unmerged, unpushed commit(s): ${work.commits
        .slice(0, 10)
        .map((commit) => `${commit.sha.slice(0, 10)} ${commit.subject}`)
        .join('; ')}${work.commits.length > 10 ? '; …' : ''}`,
    );
  }
  return parts.join(' and ');
}

/** Throws `WORKTREE_HAS_UNSAVED_WORK` naming the files and commits, unless there are none. */
export function assertNothingUnsaved(work: UnsavedWork, where: string, branch: string): void {
  if (work.files.length === 0 && work.commits.length === 0) return;
  throw new TeamkitError(
    'WORKTREE_HAS_UNSAVED_WORK',
    `Refused to remove ${where}: it has ${describeUnsaved(work)}. Commit and merge or push the work, or remove with force to discard it.`,
    { details: { path: where, branch, files: work.files, commits: work.commits } },
  );
}

async function commitCount(
  git: GitRunner,
  repoRoot: string,
  base: string,
  branch: string,
): Promise<number> {
  const { stdout } = await git.run(['rev-list', '--count', `${base}..refs/heads/${branch}`], {
    cwd: repoRoot,
  });
  return Number(stdout.trim());
}

/**
 * Removes a member's worktree. It refuses with `WORKTREE_HAS_UNSAVED_WORK` (listing the
 * files and commits) when the tree is dirty or its branch has work that is neither
 * merged into the base nor pushed; with `force` it removes anyway and reports what was
 * discarded. The branch is kept unless `deleteBranch` is set.
 */
export async function removeMemberWorktree(
  input: RemoveMemberWorktreeInput,
): Promise<RemoveMemberWorktreeReport> {
  const git = input.git ?? createGitRunner();
  const branch = memberBranchName(input.runId, input.member);
  const target = runPaths(input.home, input.runId).worktree(input.member);
  // A worktree folder replaced by a link out of the home is refused (PATH_TRAVERSAL):
  // git and rm would delete whatever the link points to.
  await resolveContainedRealPath(
    input.home,
    ...path.relative(path.resolve(input.home), target).split(path.sep),
  );
  const repoRoot = await resolveRepoRoot(git, input.repoRoot);
  const listed = await listGitWorktrees(git, repoRoot);
  let entry: ListedWorktree | undefined;
  for (const candidate of listed) if (await samePath(candidate.path, target)) entry = candidate;
  const registered = entry !== undefined && !entry.prunable;

  const work = await findUnsavedWork({
    git,
    repoRoot,
    worktreePath: target,
    branch,
    baseRef: input.baseRef,
    registered,
  });
  if (input.force !== true) assertNothingUnsaved(work, target, branch);

  let removed = false;
  if (registered) {
    await git.run(
      ['worktree', 'remove', ...(input.force === true ? ['--force', '--force'] : []), target],
      { cwd: repoRoot },
    );
    removed = true;
  } else if (await exists(target)) {
    await rm(target, { recursive: true, force: true });
    removed = true;
  }
  await git.run(['worktree', 'prune'], { cwd: repoRoot });

  let branchDeleted = false;
  if (input.deleteBranch === true && (await branchExists(git, repoRoot, branch))) {
    await git.run(['branch', '-D', branch], { cwd: repoRoot });
    branchDeleted = true;
  } else if (
    input.deleteEmptyBranch === true &&
    input.baseRef !== undefined &&
    (await branchExists(git, repoRoot, branch)) &&
    (await commitCount(git, repoRoot, checkRef(input.baseRef), branch)) === 0
  ) {
    await git.run(['branch', '-D', branch], { cwd: repoRoot });
    branchDeleted = true;
  }
  await rmdir(path.dirname(target)).catch(() => {});
  return {
    path: target,
    branch,
    removed,
    branchDeleted,
    discarded:
      input.force === true
        ? { files: work.files, commits: branchDeleted ? work.commits : [] }
        : { files: [], commits: [] },
  };
}
