import { randomUUID } from 'node:crypto';
import { mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { TeamkitError } from '../errors/index.js';
import { appendRunLog } from '../report/run-log.js';
import type { RunMerge, Task } from '../schema/index.js';
import { readRunState, type StateOptions } from '../state/index.js';
import { runKeys } from '../storage/index.js';
import { createTaskList } from '../tasklist/index.js';
import {
  addScratchWorktree,
  mergeCommitInto,
  moveBranch,
  removeScratchWorktree,
} from '../worktree/git-merge.js';
import { createGitRunner, type GitRunner } from '../worktree/git-runner.js';
import { resolveRepoRoot } from '../worktree/member-worktree.js';
import { orderByDependencies } from './merge-order.js';
import { decideMergeTarget, type MergeTarget } from './merge-target.js';
import { recordRunMerge } from './run-merges.js';
import { assertWorkIsHere } from './work-on-other-machines.js';

/** What {@link mergeRunWork} needs. */
export interface MergeRunWorkOptions extends StateOptions {
  home: string;
  runId: string;
  /** Who merges (recorded): the lead or the user; the caller checks the right. */
  by: string;
  /** The branch to merge into; default the branch the run started from. */
  into?: string;
  /** Do every merge in a scratch worktree, report, and move no branch. */
  dryRun?: boolean;
  git?: GitRunner;
}

/** A task left out of a merge, and why. */
export interface SkippedTask {
  id: string;
  subject: string;
  status: Task['status'];
  /** `not-approved`: only approved work is merged; `no-work`: nothing was recorded for it. */
  reason: 'not-approved' | 'no-work';
}

/** One task as the merge took it (or, in a dry run, would). */
export interface MergeTaskLine {
  id: string;
  subject: string;
  owner?: string;
  commit: string;
  outcome: 'merged' | 'already-merged';
  mergeCommit?: string;
}

/** What {@link mergeRunWork} did. */
export interface MergeRunWorkReport {
  runId: string;
  dryRun: boolean;
  /** The branch that holds (or would hold) the work. */
  into: string;
  /** The branch asked for when the work went elsewhere, and why. */
  fellBack?: { from: string; reason: string };
  /** The branch's commit before; absent when the merge created it. */
  from?: string;
  /** Its commit after (in a dry run: the commit it would get). */
  to: string;
  /** True when the branch moved (never in a dry run). */
  changed: boolean;
  /** The checkout that was moved forward with the branch, when it had the branch checked out. */
  checkout?: string;
  tasks: MergeTaskLine[];
  skipped: SkippedTask[];
}

const SCRATCH_PREFIX = '.merge-';

async function removeLeftoverScratch(git: GitRunner, repoRoot: string, folder: string) {
  const names = await readdir(folder).catch(() => [] as string[]);
  for (const name of names.filter((entry) => entry.startsWith(SCRATCH_PREFIX)))
    await removeScratchWorktree(git, repoRoot, path.join(folder, name));
}

function split(tasks: readonly Task[]): { mergeable: Task[]; skipped: SkippedTask[] } {
  const mergeable: Task[] = [];
  const skipped: SkippedTask[] = [];
  for (const task of tasks) {
    if (task.status === 'deleted' || task.status === 'cancelled') continue;
    const line = { id: task.id, subject: task.subject, status: task.status };
    if (task.status !== 'approved') skipped.push({ ...line, reason: 'not-approved' });
    else if (task.work === undefined) skipped.push({ ...line, reason: 'no-work' });
    else mergeable.push(task);
  }
  return { mergeable: orderByDependencies(mergeable), skipped };
}

/**
 * Builds the merged result in a scratch worktree (no checkout is touched): the target's
 * start, then the base branch when an integration branch catches up, then every task in
 * dependency order, one `--no-ff` merge commit per task. The first conflict aborts
 * everything with `MERGE_CONFLICT` naming the task, its commit and the files.
 */
async function buildMerge(
  git: GitRunner,
  repoRoot: string,
  scratch: string,
  target: MergeTarget,
  tasks: readonly Task[],
  runId: string,
): Promise<{ head: string; lines: MergeTaskLine[] }> {
  await addScratchWorktree(git, repoRoot, scratch, target.start);
  const lines: MergeTaskLine[] = [];
  const conflict = (what: Record<string, unknown>, files: string[], message: string) =>
    new TeamkitError(
      'MERGE_CONFLICT',
      `Merging ${String(what.describe)} into ${target.branch} conflicts${files.length > 0 ? ` in ${files.join(', ')}` : ''}; the merge was aborted and no branch moved. ${message}`.trim(),
      {
        details: {
          into: target.branch,
          ...what,
          files,
          mergedBefore: lines.map((line) => line.id),
        },
      },
    );
  if (target.catchUp !== undefined) {
    const caught = await mergeCommitInto(git, scratch, target.catchUp.commit, {
      message: `Merge ${target.catchUp.branch} into ${target.branch}`,
      noFastForward: false,
    });
    if (caught.kind === 'conflict')
      throw conflict(
        { describe: target.catchUp.branch, branch: target.catchUp.branch },
        caught.files,
        caught.message,
      );
  }
  for (const task of tasks) {
    const work = task.work;
    if (work === undefined) continue;
    const merged = await mergeCommitInto(git, scratch, work.commit, {
      message: `Merge task ${task.id}: ${task.subject}\n\nThe work of ${work.member} on ${work.branch} (${work.commit}), approved in Teamkit run ${runId}.`,
      noFastForward: true,
    });
    if (merged.kind === 'conflict') {
      throw conflict(
        {
          describe: `task ${task.id} (${task.subject}, ${work.commit.slice(0, 12)})`,
          taskId: task.id,
          commit: work.commit,
        },
        merged.files,
        merged.message,
      );
    }
    lines.push({
      id: task.id,
      subject: task.subject,
      ...(task.owner === undefined ? {} : { owner: task.owner }),
      commit: work.commit,
      outcome: merged.kind === 'merged' ? 'merged' : 'already-merged',
      ...(merged.kind === 'merged' ? { mergeCommit: merged.commit } : {}),
    });
  }
  const head = (await git.run(['rev-parse', 'HEAD'], { cwd: scratch })).stdout.trim();
  return { head, lines };
}

async function moveTarget(
  git: GitRunner,
  repoRoot: string,
  target: MergeTarget,
  head: string,
  runId: string,
) {
  if (target.checkout === undefined) {
    await moveBranch(git, repoRoot, target.branch, head, target.tip, `teamkit: merge run ${runId}`);
    return;
  }
  // The branch is checked out (and was clean): move that checkout forward with it. The
  // result descends from the tip the merge started from, so this is a fast-forward
  // unless someone committed meanwhile, which git refuses.
  const result = await git.run(['merge', '--ff-only', '--quiet', head], {
    cwd: target.checkout,
    allowFailure: true,
  });
  if (result.exitCode !== 0) {
    throw new TeamkitError(
      'REVISION_CONFLICT',
      `${target.branch} at ${target.checkout} could not move forward to the merged work (${result.stderr.trim()}); nothing moved. Run the merge again.`,
      { details: { branch: target.branch, path: target.checkout, stderr: result.stderr } },
    );
  }
}

/**
 * Merges the approved tasks' recorded work into the run's base branch (or `into`), in
 * dependency order, never forcing: the result is built in a scratch worktree, then the
 * branch is moved only if it still is where the merge started (a checkout that has it is
 * moved forward by a fast-forward). On a conflict nothing changes anywhere and
 * `MERGE_CONFLICT` names the task and the files. Work committed in another machine's clone
 * and not fetched here is refused first (`WORK_NOT_IN_REPOSITORY`). Each merge is recorded in
 * `runtime/<run>/merges.json` and logged as `run.merged`. One merge per run at a time.
 */
export async function mergeRunWork(options: MergeRunWorkOptions): Promise<MergeRunWorkReport> {
  const { home, runId } = options;
  const git = options.git ?? createGitRunner();
  const now = options.now ?? Date.now;
  const keyed = options.store;
  const state = await readRunState(home, runId, options);
  if (state.repoRoot === undefined) {
    throw new TeamkitError(
      'INVALID_INPUT',
      `Run ${runId} has no repository, so it has no work to merge.`,
      { details: { runId } },
    );
  }
  const repoRoot = await resolveRepoRoot(git, state.repoRoot);
  const { tasks } = await createTaskList({
    home,
    runId,
    store: options.store,
  }).listTasks();
  const { mergeable, skipped } = split(tasks);
  await assertWorkIsHere(git, repoRoot, state, mergeable);
  return keyed.withLock(runKeys(runId).merges, async () => {
    const target = await decideMergeTarget({
      git,
      repoRoot,
      state,
      ...(options.into === undefined ? {} : { into: options.into }),
    });
    const folder = path.join(home, 'worktrees', runId);
    await mkdir(folder, { recursive: true, mode: 0o700 });
    await removeLeftoverScratch(git, repoRoot, folder);
    const scratch = path.join(folder, `${SCRATCH_PREFIX}${randomUUID()}`);
    let built: { head: string; lines: MergeTaskLine[] };
    try {
      built = await buildMerge(git, repoRoot, scratch, target, mergeable, runId);
    } finally {
      await removeScratchWorktree(git, repoRoot, scratch);
    }
    const report: MergeRunWorkReport = {
      runId,
      dryRun: options.dryRun === true,
      into: target.branch,
      ...(target.fellBack === undefined ? {} : { fellBack: target.fellBack }),
      ...(target.tip === undefined ? {} : { from: target.tip }),
      to: built.head,
      changed: false,
      ...(target.checkout === undefined ? {} : { checkout: target.checkout }),
      tasks: built.lines,
      skipped,
    };
    if (options.dryRun === true || built.head === target.tip) return report;
    await moveTarget(git, repoRoot, target, built.head, runId);
    report.changed = true;
    const merge: RunMerge = {
      at: now(),
      by: options.by,
      into: target.branch,
      ...(target.fellBack === undefined
        ? {}
        : {
            requestedInto: target.fellBack.from,
            fellBackReason: target.fellBack.reason.slice(0, 2_000),
          }),
      ...(target.tip === undefined ? {} : { from: target.tip }),
      to: built.head,
      tasks: built.lines.map((line) => ({
        id: line.id,
        commit: line.commit,
        outcome: line.outcome,
        ...(line.mergeCommit === undefined ? {} : { mergeCommit: line.mergeCommit }),
      })),
    };
    await recordRunMerge(keyed, runId, merge);
    await appendRunLog(keyed, runId, {
      actor: options.by,
      type: 'run.merged',
      ids: built.lines.map((line) => line.id),
      data: {
        into: target.branch,
        from: target.tip ?? null,
        to: built.head,
        fellBack: target.fellBack?.from ?? null,
      },
      at: now(),
    });
    return report;
  });
}
