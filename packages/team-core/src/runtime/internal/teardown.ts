import { errorMessage, isTeamkitError } from '../../errors/index.js';
import type { RunMember, RuntimeState } from '../../schema/index.js';
import { readRunState, requireLead } from '../../state/index.js';
import { closeRunLayout } from '../../tmux/index.js';
import { removeMemberWorktree, type UnsavedCommit } from '../../worktree/index.js';
import { codeOf, stopMemberSession } from './member-session.js';
import type { RuntimeContext } from './runtime-context.js';

/** A step of the teardown that can fail. */
export type TeardownStep = 'stop-session' | 'release-tasks' | 'close-panes' | 'remove-worktree';

/** A failure the teardown went past (in its tolerant mode), reported instead of thrown. */
export interface TeardownProblem {
  step: TeardownStep;
  /** The member the step was for; absent for run-wide steps (panes). */
  member?: string;
  message: string;
  /** The Teamkit error code, `INTERNAL` for anything else. */
  code: string;
}

/** What a teardown stopped, released, closed, removed and kept, and what went wrong. */
export interface TeardownReport {
  stopped: string[];
  /** Members whose sessions may still run (host without `stopMember`, or a failure), with why. */
  notStopped: { member: string; reason: string; code: string }[];
  releasedTasks: string[];
  removedWorktrees: string[];
  /** Member branches removed with their worktrees because nothing was committed on them. */
  removedBranches: string[];
  keptWorktrees: { member: string; path: string; reason: string }[];
  /** What a forced removal threw away: uncommitted files, and commits of deleted branches. */
  discardedWork: { member: string; path: string; files: string[]; commits: UnsavedCommit[] }[];
  panesClosed: string[];
  /**
   * Steps that failed and were gone past (with `tolerateFailures`), and steps that could
   * not be done at all (panes recorded but no tmux runner to close them).
   */
  problems: TeardownProblem[];
}

/** What a teardown does; every caller says so, there are no hidden defaults. */
export interface TeardownOptions {
  /** Stop the sessions of members not yet terminated. */
  stopSessions: boolean;
  /** Put those members' open tasks back to pending; only a run that still accepts writes can. */
  releaseTasks: boolean;
  /** Close the tmux layout the run recorded. */
  closePanes: boolean;
  /** Remove member worktrees (by the rules below); false leaves them for a later phase. */
  removeWorktrees: boolean;
  /** Remove member worktrees even when they hold unsaved work (the report says what was lost). */
  force: boolean;
  /** Keep every worktree (the `worktree.cleanup: keep` setting); `force` overrides it. */
  keepWorktrees: boolean;
  /** Delete the member branches with their worktrees (a rollback leaves nothing behind). */
  deleteBranches: boolean;
  /**
   * Go on past a failing step and report it in `problems`. Without it the first failure
   * throws and the run keeps its status, so a later stop or resume can finish the job.
   */
  tolerateFailures: boolean;
}

/** Adds the findings of a later phase to a report. */
export function mergeTeardownReports(into: TeardownReport, from: TeardownReport): TeardownReport {
  for (const key of Object.keys(into) as (keyof TeardownReport)[]) {
    (into[key] as unknown[]).push(...(from[key] as unknown[]));
  }
  return into;
}

/** An empty report. */
export function emptyTeardownReport(): TeardownReport {
  return {
    stopped: [],
    notStopped: [],
    releasedTasks: [],
    removedWorktrees: [],
    removedBranches: [],
    keptWorktrees: [],
    discardedWork: [],
    panesClosed: [],
    problems: [],
  };
}

/**
 * The one teardown of a run, used by stop, by the rollback of a failed start and by
 * resume finishing a deletion: stop member sessions, release their tasks, close the
 * run's panes, remove worktrees by the safety rule. Known outcomes (a session the host
 * cannot stop, a worktree with unsaved work) are reported, never thrown; anything else
 * throws, or with `tolerateFailures` is reported under `problems` and the rest goes on.
 */
export async function teardownRun(
  ctx: RuntimeContext,
  runId: string,
  options: TeardownOptions,
): Promise<TeardownReport> {
  const state = await readRunState(ctx.home, runId, ctx.stateOptions);
  const report = emptyTeardownReport();
  const failed = (step: TeardownStep, member: string | undefined, error: unknown): void => {
    if (!options.tolerateFailures) throw error;
    report.problems.push({
      step,
      ...(member === undefined ? {} : { member }),
      message: errorMessage(error),
      code: codeOf(error),
    });
  };

  const live = state.members.filter((member) => member.status !== 'terminated');
  if (options.stopSessions) {
    for (const member of live) {
      const outcome = await stopMemberSession(ctx.host, state, member);
      if (outcome.kind === 'stopped') report.stopped.push(member.name);
      if (outcome.kind === 'not-stopped')
        report.notStopped.push({ member: member.name, reason: outcome.reason, code: outcome.code });
    }
  }
  if (options.releaseTasks) {
    for (const member of live) {
      try {
        const released = await ctx
          .tasks(runId)
          .releaseTasksOf(requireLead(state).name, member.name);
        report.releasedTasks.push(...released.map((task) => task.id));
      } catch (error) {
        failed('release-tasks', member.name, error);
      }
    }
  }
  if (options.closePanes && state.tmuxLayout !== undefined) {
    if (ctx.tmux === undefined) {
      // Not a failure to stop for: the panes are the user's to close, and the report says so.
      report.problems.push({
        step: 'close-panes',
        message:
          'The run recorded tmux panes but this runtime has no tmux runner; close them with `team tmux sweep`.',
        code: 'TMUX_UNAVAILABLE',
      });
    } else {
      try {
        const closed = await closeRunLayout({
          home: ctx.home,
          runId,
          runner: ctx.tmux.runner,
          ...ctx.stateOptions,
        });
        report.panesClosed.push(...closed.killed);
      } catch (error) {
        failed('close-panes', undefined, error);
      }
    }
  }
  if (options.removeWorktrees) {
    for (const member of state.members) {
      try {
        await removeWorktree(ctx, state, member, options, report);
      } catch (error) {
        failed('remove-worktree', member.name, error);
      }
    }
  }
  return report;
}

async function removeWorktree(
  ctx: RuntimeContext,
  state: RuntimeState,
  member: RunMember,
  options: TeardownOptions,
  report: TeardownReport,
): Promise<void> {
  if (member.worktreePath === undefined || state.repoRoot === undefined) return;
  if (options.keepWorktrees && !options.force) {
    report.keptWorktrees.push({
      member: member.name,
      path: member.worktreePath,
      reason: 'kept by the setting worktree.cleanup = "keep"; a forced stop removes it',
    });
    return;
  }
  try {
    const removed = await removeMemberWorktree({
      home: ctx.home,
      repoRoot: state.repoRoot,
      runId: state.runId,
      member: member.name,
      ...(member.baseRef === undefined ? {} : { baseRef: member.baseRef }),
      force: options.force,
      deleteBranch: options.deleteBranches,
      // A branch nobody committed to holds nothing to merge or keep.
      deleteEmptyBranch: true,
    });
    if (removed.removed) report.removedWorktrees.push(removed.path);
    if (removed.branchDeleted) report.removedBranches.push(removed.branch);
    const { files, commits } = removed.discarded;
    if (files.length > 0 || commits.length > 0)
      report.discardedWork.push({ member: member.name, path: removed.path, files, commits });
  } catch (error) {
    if (!isTeamkitError(error, 'WORKTREE_HAS_UNSAVED_WORK')) throw error;
    report.keptWorktrees.push({
      member: member.name,
      path: member.worktreePath,
      reason: error.message,
    });
  }
}
