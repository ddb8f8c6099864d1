import type { RuntimeState } from '../../schema/index.js';
import {
  readRunState,
  TERMINAL_RUN_STATUSES,
  transitionMember,
  transitionRun,
} from '../../state/index.js';
import type { RuntimeContext } from './runtime-context.js';
import {
  emptyTeardownReport,
  mergeTeardownReports,
  type TeardownReport,
  teardownRun,
} from './teardown.js';

/** What {@link TeamRuntime.stopRun} did. */
export interface StopRunReport extends TeardownReport {
  runId: string;
  status: RuntimeState['status'];
}

/** How to stop a run. */
export interface StopRunOptions {
  /**
   * Remove worktrees even when they hold unsaved work (or the `worktree.cleanup: keep`
   * setting keeps them); the report lists what was removed and discarded. On a run that
   * is already stopped, this finishes the cleanup a plain stop refused.
   */
  force?: boolean;
  /**
   * Go on past any failing step and report it under `problems`; the run then always ends
   * `deleted`. Without it the first unexpected failure throws and the run stays `deleting`,
   * so another stop (or a resume) can finish.
   */
  tolerateFailures?: boolean;
}

/** Ending runs: stop, the rollback of a failed start, and the end of a deletion cut short. */
export interface Stopper {
  stopRun(runId: string, options?: StopRunOptions): Promise<StopRunReport>;
  /** Undoes what a failed start made; never throws for a failing step, it reports it. */
  rollback(runId: string): Promise<TeardownReport>;
  /** Finishes a deletion a crash cut short; the run's status is left to the caller. */
  finishDeletion(runId: string): Promise<TeardownReport>;
}

/** Creates the stopping part of a runtime; every path goes through {@link teardownRun}. */
export function createStopper(ctx: RuntimeContext): Stopper {
  async function keepWorktrees(): Promise<boolean> {
    return (await ctx.settings())['worktree.cleanup'] === 'keep';
  }

  async function terminateMembers(runId: string): Promise<void> {
    const reason = { ...ctx.stateOptions, reason: 'run stopped' };
    for (const member of (await readRunState(ctx.home, runId, ctx.stateOptions)).members) {
      if (member.status === 'terminated') continue;
      if (member.status !== 'errored' && member.status !== 'shutdown_approved')
        await transitionMember(ctx.home, runId, member.name, 'shutdown_approved', reason);
      await transitionMember(ctx.home, runId, member.name, 'terminated', reason);
    }
  }

  /**
   * Stops a run that is not yet terminal. While the run still accepts writes, sessions
   * are stopped and open tasks released (the run is `shutdown_requested` meanwhile); then
   * the run is `deleting` while panes and worktrees go, members are terminated, and the
   * run ends `deleted`. A run cut short while `deleting` is finished the same way.
   */
  async function stopLiveRun(
    state: RuntimeState,
    options: { force: boolean; tolerateFailures: boolean },
  ): Promise<StopRunReport> {
    const { runId } = state;
    const reason = options.force ? 'forced stop' : 'stop';
    const keep = await keepWorktrees();
    const common = { ...options, keepWorktrees: keep, deleteBranches: false };
    let report = emptyTeardownReport();
    let sessionsStopped = false;
    if (state.status === 'active')
      await transitionRun(ctx.home, runId, 'shutdown_requested', { ...ctx.stateOptions, reason });
    if (state.status === 'active' || state.status === 'shutdown_requested') {
      report = await teardownRun(ctx, runId, {
        ...common,
        stopSessions: true,
        releaseTasks: true,
        closePanes: false,
        removeWorktrees: false,
      });
      sessionsStopped = true;
    }
    await transitionRun(ctx.home, runId, 'deleting', { ...ctx.stateOptions, reason });
    mergeTeardownReports(
      report,
      await teardownRun(ctx, runId, {
        ...common,
        stopSessions: !sessionsStopped,
        releaseTasks: false,
        closePanes: true,
        removeWorktrees: true,
      }),
    );
    await terminateMembers(runId);
    return { runId, status: state.status, ...report };
  }

  const stopper: Stopper = {
    rollback: (runId) =>
      teardownRun(ctx, runId, {
        stopSessions: true,
        releaseTasks: false,
        closePanes: true,
        removeWorktrees: true,
        force: false,
        keepWorktrees: false,
        deleteBranches: true,
        tolerateFailures: true,
      }),

    async finishDeletion(runId) {
      const state = await readRunState(ctx.home, runId, ctx.stateOptions);
      const report = await stopLiveRun(state, { force: false, tolerateFailures: false });
      await ctx.event(runId, 'run.stopped', [], {
        finishedOnResume: true,
        keptWorktrees: report.keptWorktrees.length,
      });
      return report;
    },

    async stopRun(runId, options = {}) {
      const force = options.force === true;
      const tolerateFailures = options.tolerateFailures === true;
      const state = await readRunState(ctx.home, runId, ctx.stateOptions);
      if (TERMINAL_RUN_STATUSES.includes(state.status)) {
        // Already stopped: only worktrees can be left, kept by the earlier stop.
        const report = await teardownRun(ctx, runId, {
          stopSessions: false,
          releaseTasks: false,
          closePanes: false,
          removeWorktrees: true,
          force,
          keepWorktrees: await keepWorktrees(),
          deleteBranches: false,
          tolerateFailures,
        });
        if (report.removedWorktrees.length > 0) {
          await ctx.event(runId, 'run.worktrees_removed', [], {
            removed: report.removedWorktrees,
            force,
          });
        }
        return { runId, status: state.status, ...report };
      }
      if (state.status === 'creating') {
        const report = await stopper.rollback(runId);
        const failed = await transitionRun(ctx.home, runId, 'failed', {
          ...ctx.stateOptions,
          reason: 'stopped while creating',
        });
        return { runId, status: failed.status, ...report };
      }
      const report = await stopLiveRun(state, { force, tolerateFailures });
      const final = await transitionRun(ctx.home, runId, 'deleted', ctx.stateOptions);
      await ctx.event(runId, 'run.stopped', [], {
        force,
        keptWorktrees: report.keptWorktrees.length,
        problems: report.problems,
      });
      return { ...report, status: final.status };
    },
  };
  return stopper;
}
