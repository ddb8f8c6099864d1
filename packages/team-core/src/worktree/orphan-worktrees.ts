import { readdir, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { isTeamkitError } from '../errors/index.js';
import { RunIdSchema } from '../schema/names.js';
import type { RunStatus } from '../schema/runtime-state.js';
import { readRunState, type StateOptions } from '../state/index.js';
import { containedPath } from '../storage/contained-path.js';
import { createGitRunner, type GitRunner } from './git-runner.js';
import {
  listGitWorktrees,
  memberBranchName,
  type RemoveMemberWorktreeReport,
  removeMemberWorktree,
  type UnsavedWork,
} from './member-worktree.js';

/** A member worktree whose run is gone or finished. */
export interface OrphanWorktree {
  runId: string;
  member: string;
  path: string;
  /** `run-missing`: no state for the run; `run-finished`: the run is deleted, failed or orphaned. */
  reason: 'run-missing' | 'run-finished';
  runStatus?: RunStatus;
  /** The repository the worktree belongs to, when git still knows it. */
  repoRoot?: string;
  branch: string;
  /** False when the folder is gone and only git's metadata is left. */
  folderExists: boolean;
}

/** Options for {@link findOrphanWorktrees} and {@link pruneOrphans}. */
export interface OrphanWorktreeOptions extends StateOptions {
  home: string;
  /** Repositories whose registered worktrees are checked too (folders are always scanned). */
  repoRoots?: string[];
  git?: GitRunner;
}

/** Options for {@link pruneOrphans}. */
export interface PruneOrphansOptions extends OrphanWorktreeOptions {
  /** Remove even with unsaved work, reporting what was discarded. */
  force?: boolean;
  /** Also delete the orphans' branches (only when their work is saved, or with force). */
  deleteBranches?: boolean;
}

/** What {@link pruneOrphans} removed and what it refused. */
export interface PruneOrphansReport {
  removed: RemoveMemberWorktreeReport[];
  refused: { path: string; branch: string; unsaved: UnsavedWork; message: string }[];
  /** Orphans whose repository could not be found: folders that git never registered. */
  failed: { path: string; message: string }[];
}

const FINISHED: readonly RunStatus[] = ['deleted', 'failed', 'orphaned'];

async function runStatusOf(
  home: string,
  runId: string,
  options: StateOptions,
): Promise<RunStatus | 'missing' | 'unreadable'> {
  try {
    return (await readRunState(home, runId, options)).status;
  } catch (error) {
    if (isTeamkitError(error, 'RUN_NOT_FOUND')) return 'missing';
    if (isTeamkitError(error)) return 'unreadable';
    throw error;
  }
}

async function repoOfWorktree(git: GitRunner, folder: string): Promise<string | undefined> {
  const result = await git
    .run(['worktree', 'list', '--porcelain'], { cwd: folder, allowFailure: true })
    .catch(() => undefined);
  if (result === undefined || result.exitCode !== 0) return undefined;
  const first = result.stdout.split('\n').find((line) => line.startsWith('worktree '));
  return first?.slice('worktree '.length);
}

async function subfolders(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
}

/**
 * Finds member worktrees whose run is gone (no state) or finished (deleted, failed,
 * orphaned): folders under `<home>/worktrees/`, and worktrees registered in `repoRoots`
 * that point there. A run whose state is unreadable is never treated as gone.
 * Finding is read-only.
 */
export async function findOrphanWorktrees(
  options: OrphanWorktreeOptions,
): Promise<OrphanWorktree[]> {
  const git = options.git ?? createGitRunner();
  const base = containedPath(options.home, 'worktrees');
  const orphans = new Map<string, OrphanWorktree>();
  const judge = async (runId: string, member: string, folderExists: boolean, repoRoot?: string) => {
    const status = await runStatusOf(options.home, runId, options);
    if (status === 'unreadable' || (status !== 'missing' && !FINISHED.includes(status))) return;
    const folder = containedPath(base, runId, member);
    const known = orphans.get(folder);
    orphans.set(folder, {
      runId,
      member,
      path: folder,
      reason: status === 'missing' ? 'run-missing' : 'run-finished',
      runStatus: status === 'missing' ? undefined : status,
      repoRoot:
        repoRoot ??
        known?.repoRoot ??
        (folderExists ? await repoOfWorktree(git, folder) : undefined),
      branch: memberBranchName(runId, member),
      folderExists: folderExists || known?.folderExists === true,
    });
  };

  for (const runId of await subfolders(base)) {
    if (!RunIdSchema.safeParse(runId).success) continue;
    for (const member of await subfolders(path.join(base, runId))) {
      try {
        memberBranchName(runId, member);
      } catch {
        continue;
      }
      await judge(runId, member, true);
    }
  }
  for (const repoRoot of options.repoRoots ?? []) {
    for (const entry of await listGitWorktrees(git, repoRoot)) {
      const relative = path.relative(base, entry.path);
      const [runId, member, ...rest] = relative.split(path.sep);
      if (
        relative.startsWith('..') ||
        rest.length > 0 ||
        runId === undefined ||
        member === undefined
      )
        continue;
      if (!RunIdSchema.safeParse(runId).success) continue;
      if (orphans.has(entry.path)) continue;
      await judge(runId, member, !entry.prunable, repoRoot);
    }
  }
  return [...orphans.values()].sort((a, b) => a.path.localeCompare(b.path));
}

/**
 * Removes orphan worktrees under the same safety rule as {@link removeMemberWorktree}:
 * an orphan with unsaved work is refused and reported (unless `force`), never silently
 * deleted. Stale git metadata of worktrees whose folder is gone is pruned.
 */
export async function pruneOrphans(options: PruneOrphansOptions): Promise<PruneOrphansReport> {
  const git = options.git ?? createGitRunner();
  const report: PruneOrphansReport = { removed: [], refused: [], failed: [] };
  const runFolders = new Set<string>();
  for (const orphan of await findOrphanWorktrees({ ...options, git })) {
    runFolders.add(path.dirname(orphan.path));
    if (orphan.repoRoot === undefined) {
      report.failed.push({
        path: orphan.path,
        message: `${orphan.path} is not a worktree of any repository git knows; inspect it and remove it by hand.`,
      });
      continue;
    }
    try {
      report.removed.push(
        await removeMemberWorktree({
          home: options.home,
          repoRoot: orphan.repoRoot,
          runId: orphan.runId,
          member: orphan.member,
          git,
          force: options.force,
          deleteBranch: options.deleteBranches,
        }),
      );
    } catch (error) {
      if (!isTeamkitError(error, 'WORKTREE_HAS_UNSAVED_WORK')) {
        report.failed.push({ path: orphan.path, message: (error as Error).message });
        continue;
      }
      report.refused.push({
        path: orphan.path,
        branch: orphan.branch,
        unsaved: {
          files: (error.details?.files as string[]) ?? [],
          commits: (error.details?.commits as UnsavedWork['commits']) ?? [],
        },
        message: error.message,
      });
    }
  }
  for (const folder of runFolders) await rmdir(folder).catch(() => {});
  return report;
}
