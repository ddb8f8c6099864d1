import path from 'node:path';
import type { RunStatusReport, RuntimeState } from '@teamkit/team-core';
import { listRunIds, resolveRunId } from '../../command-context.js';
import type { CommandHandler } from '../../command-handler.js';

/** `team run start <team>`: creates the run, starts its members, and supervises it. */
export const runStartCommand: CommandHandler = async (context, [team], options) => {
  const { openProcessRuntime } = await import('../../supervisor/open-runtime.js');
  const tmux = options.tmux !== false && Boolean(context.env.TMUX);
  const { runtime } = await openProcessRuntime({
    home: context.home,
    env: context.env,
    tmux,
    resumeOnStart: true,
    ...(typeof options.agentCmd === 'string' ? { agentCommand: options.agentCmd } : {}),
    ...(typeof options.project === 'string' ? { project: path.resolve(options.project) } : {}),
  });
  const result = await runtime.startRun(team as string, {
    ...(typeof options.repo === 'string' ? { repo: path.resolve(options.repo) } : {}),
  });
  const { output } = context;
  const summary = {
    runId: result.runId,
    team: result.state.teamName,
    spawned: result.spawned,
    waiting: result.waiting,
    mode: tmux ? 'tmux' : 'background',
  };
  if (options.attach === true) {
    output.note(`Run ${result.runId} started; supervising (Ctrl-C leaves it running).`);
    const { superviseRun } = await import('../../supervisor/supervise-run.js');
    const controller = new AbortController();
    const onSignal = () => controller.abort();
    process.once('SIGINT', onSignal);
    const outcome = await superviseRun({ runtime, runId: result.runId, signal: controller.signal });
    process.off('SIGINT', onSignal);
    output.result(
      { ...summary, supervisor: 'attached', outcome },
      () => `Run ${result.runId}: ${outcome}.`,
    );
    return undefined;
  }
  const { startBackgroundSupervisor } = await import('../../supervisor/background-supervisor.js');
  const supervisorPid = await startBackgroundSupervisor(context.home, result.runId, context.env);
  output.result({ ...summary, supervisor: { pid: supervisorPid } }, () =>
    [
      `${output.style('green', 'started')} ${summary.team} run ${output.style('bold', result.runId)}`,
      `  members: ${result.spawned.join(', ') || '-'}${result.waiting.length > 0 ? `; waiting: ${result.waiting.join(', ')}` : ''}`,
      `  members run ${tmux ? 'in their own tmux panes' : 'in the background (logs in runtime/<run>/logs/)'}`,
      `  follow it: team dashboard ${result.runId.slice(0, 8)}`,
    ].join('\n'),
  );
  return undefined;
};

function runLine(state: RuntimeState): Record<string, unknown> {
  return {
    runId: state.runId,
    team: state.teamName,
    status: state.status,
    createdAt: state.createdAt,
    members: state.members.length,
    host: state.hostId,
  };
}

/** `team run list`: every run under the home, oldest first. */
export const runListCommand: CommandHandler = async (context) => {
  const { output } = context;
  if ((await listRunIds(context.home)).length === 0) {
    output.result({ runs: [], problems: [] }, () => 'No runs.');
    return undefined;
  }
  const { listRuns } = await import('@teamkit/team-core');
  const listing = await listRuns(context.home);
  output.result(
    { runs: listing.runs.map(runLine), problems: listing.problems },
    () =>
      listing.runs
        .map(
          (state) =>
            `${state.runId}  ${state.teamName.padEnd(14)} ${state.status.padEnd(18)} ${new Date(state.createdAt).toISOString()}`,
        )
        .join('\n') || 'No runs.',
  );
  return undefined;
};

/** `team run status [run]`: one run's report, or a line per working run. */
export const runStatusCommand: CommandHandler = async (context, [run], _options) => {
  const { output } = context;
  if (run === undefined && context.memberRun === undefined) {
    // Answered from the folder listing alone when there is nothing to read: this call is timed.
    if ((await listRunIds(context.home)).length === 0) {
      output.result({ runs: [] }, () => 'No runs.');
      return undefined;
    }
    const { listRuns, WORKING_RUN_STATUSES } = await import('@teamkit/team-core');
    const working = (await listRuns(context.home)).runs.filter((state) =>
      WORKING_RUN_STATUSES.includes(state.status),
    );
    output.result(
      { runs: working.map(runLine) },
      () =>
        working.map((state) => `${state.runId}  ${state.teamName}  ${state.status}`).join('\n') ||
        'No working runs.',
    );
    return undefined;
  }
  const runId = await resolveRunId(context, run);
  const { collectRunStatus } = await import('@teamkit/team-core');
  const report: RunStatusReport = await collectRunStatus({ home: context.home, runId });
  const { renderDashboard } = await import('../../dashboard/render-dashboard.js');
  output.result({ status: report }, () =>
    renderDashboard(report, { paint: output.style, width: process.stdout.columns ?? 100 }),
  );
  return undefined;
};

/** `team run stop <run> [--force]`: members, panes, tasks and worktrees. */
export const runStopCommand: CommandHandler = async (context, [run], options) => {
  const runId = await resolveRunId(context, run);
  const { stopRunAsUser } = await import('../../supervisor/stop-run.js');
  const report = await stopRunAsUser({
    home: context.home,
    runId,
    env: context.env,
    force: options.force === true,
  });
  const { output } = context;
  output.result({ report }, () =>
    [
      `${output.style('green', 'stopped')} run ${runId} (${report.status})`,
      `  members stopped: ${report.stopped.join(', ') || '-'}`,
      ...report.notStopped.map(
        (entry) => `  ${output.style('yellow', 'not stopped')} ${entry.member}: ${entry.reason}`,
      ),
      `  worktrees removed: ${report.removedWorktrees.length}`,
      ...report.keptWorktrees.map(
        (entry) => `  ${output.style('yellow', 'kept')} ${entry.path}: ${entry.reason}`,
      ),
    ].join('\n'),
  );
  return undefined;
};

/** `team run resume [run]`: recovery after a restart, then a supervisor again. */
export const runResumeCommand: CommandHandler = async (context, [run]) => {
  const { openProcessRuntime } = await import('../../supervisor/open-runtime.js');
  const { startBackgroundSupervisor } = await import('../../supervisor/background-supervisor.js');
  const { WORKING_RUN_STATUSES, readRunState } = await import('@teamkit/team-core');
  const { runtime } = await openProcessRuntime({ home: context.home, env: context.env });
  const runIds: string[] = [];
  let report: unknown;
  if (run !== undefined || context.memberRun !== undefined) {
    const runId = await resolveRunId(context, run);
    report = await runtime.resumeRun(runId);
    runIds.push(runId);
  } else {
    const all = await runtime.resumeAll();
    report = all;
    runIds.push(...all.runs.map((entry) => entry.runId));
  }
  const supervised: string[] = [];
  for (const runId of runIds) {
    const state = await readRunState(context.home, runId);
    if (!WORKING_RUN_STATUSES.includes(state.status)) continue;
    await startBackgroundSupervisor(context.home, runId, context.env);
    supervised.push(runId);
  }
  context.output.result({ report, supervised }, () =>
    runIds.length === 0
      ? 'Nothing to resume.'
      : `Resumed ${runIds.join(', ')}; supervising ${supervised.length}.`,
  );
  return undefined;
};

/** `team run supervise <run>`: the supervisor loop in the foreground. */
export const runSuperviseCommand: CommandHandler = async (context, [run]) => {
  const runId = await resolveRunId(context, run);
  const { readRunState } = await import('@teamkit/team-core');
  const state = await readRunState(context.home, runId);
  const { openProcessRuntime } = await import('../../supervisor/open-runtime.js');
  const { superviseRun } = await import('../../supervisor/supervise-run.js');
  const { runtime } = await openProcessRuntime({ home: context.home, env: context.env, state });
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const outcome = await superviseRun({ runtime, runId, signal: controller.signal });
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  context.output.result({ runId, outcome }, () => `Run ${runId}: ${outcome}.`);
  return undefined;
};

/** `team run sweep`: removes the folders of deleted (and old failed) runs. */
export const runSweepCommand: CommandHandler = async (context) => {
  const { sweepRuns } = await import('@teamkit/team-core');
  const report = await sweepRuns(context.home);
  context.output.result({ report }, () =>
    report.removed.length === 0
      ? 'Nothing to sweep.'
      : report.removed.map((entry) => `removed ${entry.runId} (${entry.status})`).join('\n'),
  );
  return undefined;
};
