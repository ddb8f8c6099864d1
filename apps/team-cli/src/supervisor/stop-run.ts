import type { StopRunReport } from '@teamkit/team-core';
import type { TeamkitStore } from '@teamkit/team-core/storage';
import { type SpawnedProcess, stopStraySpawns } from '../process-host/spawn-records.js';
import { type SupervisorStopOutcome, stopBackgroundSupervisor } from './background-supervisor.js';
import { openProcessRuntime } from './open-runtime.js';

/** A member whose recorded process failed the ownership check, so it was never signalled. */
export interface NotSignalledMember {
  member: string;
  sessionId: string;
  reason: string;
}

/** What {@link stopRunAsUser} did: the runtime's report, the supervisor, and refused records. */
export interface StopRunOutcome {
  report: StopRunReport;
  supervisor: SupervisorStopOutcome;
  notSignalled: NotSignalledMember[];
  /** Processes of the run's spawns that no record named, stopped after the members. */
  strays: SpawnedProcess[];
}

/**
 * Stops a run as `team run stop` does: its background supervisor first (so it does not
 * restart members), then members, panes, tasks and worktrees by the safety rule. `force`
 * also removes worktrees with unsaved work and goes on past failing steps, listing them.
 * Every signal goes to a process verified as the run's at that moment; recorded processes
 * that fail the check are reported in `notSignalled`, never signalled, and not listed as
 * stopped. The caller decides beforehand who may stop the run.
 */
export async function stopRunAsUser(options: {
  home: string;
  /** The store holding the home's runs (the command's). */
  store: TeamkitStore;
  runId: string;
  env: NodeJS.ProcessEnv;
  force?: boolean;
  /** A project whose settings (`worktree.cleanup`) apply too. */
  project?: string;
}): Promise<StopRunOutcome> {
  const { openRun } = await import('@teamkit/team-core');
  const { home, runId, store } = options;
  const state = await openRun({ home, runId, store }).state.read();
  const supervisor = await stopBackgroundSupervisor(options.home, options.runId);
  const { runtime, host } = await openProcessRuntime({
    home: options.home,
    store,
    env: options.env,
    state,
    ...(options.project === undefined ? {} : { project: options.project }),
  });
  const notSignalled = state.members.flatMap((member): NotSignalledMember[] => {
    if (member.sessionId === undefined || member.sessionId === state.leadSessionId) return [];
    if (member.status === 'terminated') return [];
    const check = host.inspectSession(member.sessionId);
    return check.verdict === 'not-ours'
      ? [{ member: member.name, sessionId: member.sessionId, reason: check.reason ?? '' }]
      : [];
  });
  const force = options.force === true;
  const stopped = await runtime.stopRun(options.runId, { force, tolerateFailures: force });
  // Processes no record names (a start killed between a spawn and its record, a turn left
  // behind by a killed runner) carry the run's spawn nonces: none of them outlives the stop.
  const strays = await stopStraySpawns(options.home, options.runId);
  const report = {
    ...stopped,
    stopped: stopped.stopped.filter((name) => !notSignalled.some((e) => e.member === name)),
  };
  return { report, supervisor, notSignalled, strays };
}
