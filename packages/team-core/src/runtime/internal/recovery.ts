import { errorMessage } from '../../errors/index.js';
import {
  type OtherMachinesLiveness,
  type RecoveryActions,
  type ResumeAllReport,
  type RunResumeReport,
  readRunState,
  requireLead,
  resumeAll,
  resumeRun,
  updateRunState,
  WORKING_RUN_STATUSES,
} from '../../state/index.js';

import type { RuntimeContext } from './runtime-context.js';
import type { Stopper } from './stop-run.js';
import type { TeardownReport } from './teardown.js';

/** Bringing runs back after a restart. */
export interface Recovery {
  resumeRun(runId: string): Promise<RunResumeReport>;
  resumeAll(): Promise<ResumeAllReport>;
}

function describeTeardown(report: TeardownReport): string[] {
  return [
    ...report.stopped.map((member) => `session of ${member}`),
    ...report.panesClosed.map((pane) => `pane ${pane}`),
    ...report.removedWorktrees.map((path) => `worktree ${path}`),
  ];
}

function describeProblems(report: TeardownReport): string[] {
  return [
    ...report.notStopped.map((entry) => `stop-session ${entry.member}: ${entry.reason}`),
    ...report.problems.map(
      (problem) =>
        `${problem.step}${problem.member === undefined ? '' : ` ${problem.member}`}: ${problem.message}`,
    ),
  ];
}

/**
 * Creates the recovery part of a runtime: the actions resume takes for dead members and
 * runs cut short, all through the runtime's one teardown. What a rollback could not undo
 * is added to the run's resume report as an error, never dropped.
 */
export function createRecovery(
  ctx: RuntimeContext,
  stopper: Stopper,
  otherMachines?: OtherMachinesLiveness,
): Recovery {
  function actions(problems: Map<string, string[]>): RecoveryActions {
    const note = (runId: string, lines: string[]) => {
      if (lines.length > 0) problems.set(runId, [...(problems.get(runId) ?? []), ...lines]);
    };
    return {
      async releaseTasksOf(runId, member) {
        const state = await readRunState(ctx.home, runId, ctx.stateOptions);
        const released = await ctx.tasks(runId).releaseTasksOf(requireLead(state).name, member);
        return released.map((task) => task.id);
      },
      async reclaimReservations(runId, member) {
        const outcome = await ctx.mailbox(runId).reclaimStaleReservations(0, member);
        return outcome.reclaimed.map((entry) => entry.messageId);
      },
      async rollbackRun(state) {
        const report = await stopper.rollback(state.runId);
        note(
          state.runId,
          describeProblems(report).map((line) => `rollback: ${line}`),
        );
        return describeTeardown(report);
      },
      async finishDeletion(state) {
        const report = await stopper.finishDeletion(state.runId);
        note(
          state.runId,
          describeProblems(report).map((line) => `finish deletion: ${line}`),
        );
        return describeTeardown(report);
      },
    };
  }

  /**
   * A restarted runtime owns no delivery in flight: anything still reserved for a member
   * was cut off mid-delivery and goes back to unread (receivers dedupe by id). Only one
   * runtime delivers for a run at a time. In a run shared by several machines, that is
   * per machine: the deliveries of another machine's members are that machine's.
   */
  async function reclaimInterruptedDeliveries(runId: string): Promise<void> {
    const state = await readRunState(ctx.home, runId, ctx.stateOptions);
    if (!WORKING_RUN_STATUSES.includes(state.status)) return;
    const mailbox = ctx.mailbox(runId);
    const ours = (member: { machine?: string | undefined }) =>
      ctx.machine === undefined || member.machine === undefined || member.machine === ctx.machine;
    const members = state.members.filter(ours);
    for (const member of members) await mailbox.reclaimStaleReservations(0, member.name);
    if (members.some((member) => member.pendingDeliveryIds.length > 0)) {
      await updateRunState(
        ctx.home,
        runId,
        (draft) => {
          for (const member of draft.members.filter(ours)) member.pendingDeliveryIds = [];
          return draft;
        },
        ctx.stateOptions,
      );
    }
  }

  return {
    async resumeRun(runId) {
      const problems = new Map<string, string[]>();
      const report = await resumeRun(ctx.home, runId, ctx.host, {
        ...ctx.stateOptions,
        hostId: ctx.host.hostId,
        recovery: actions(problems),
        ...(otherMachines === undefined ? {} : { otherMachines }),
      });
      report.errors.push(...(problems.get(runId) ?? []));
      await reclaimInterruptedDeliveries(runId);
      return report;
    },
    async resumeAll() {
      const problems = new Map<string, string[]>();
      const report = await resumeAll(ctx.home, ctx.host, {
        ...ctx.stateOptions,
        hostId: ctx.host.hostId,
        recovery: actions(problems),
        ...(otherMachines === undefined ? {} : { otherMachines }),
      });
      for (const run of report.runs) {
        run.errors.push(...(problems.get(run.runId) ?? []));
        try {
          await reclaimInterruptedDeliveries(run.runId);
        } catch (error) {
          report.failed.push({ runId: run.runId, error: errorMessage(error) });
        }
      }
      return report;
    },
  };
}
