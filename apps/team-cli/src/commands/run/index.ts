import path from 'node:path';
import { authorizeRunOperation } from '../../command-access.js';
import { listRunIds, resolveRunId } from '../../command-context.js';
import type { CommandHandler } from '../../command-handler.js';
import { runLine } from './run-line.js';

export { runStatusCommand } from './run-status.js';

/**
 * `team run start <team>`: decides how each member starts (`--agent`, `--agent-cmd`, or
 * the team's own `agent:`), records it with the run, creates the run, starts its members
 * and supervises it. `--dry-run` prints each member's exact command and creates nothing.
 */
export const runStartCommand: CommandHandler = async (context, [team], options) => {
  const { openProcessRuntime } = await import('../../supervisor/open-runtime.js');
  const { loadCliSettings, wantsTmux } = await import('../../cli-settings.js');
  const { loadTeamLibrary, resolveStartableTeam } = await import('@teamkit/team-core');
  const { agentChoiceOf, planRunLaunch } = await import('./plan-run-launch.js');
  const project = typeof options.project === 'string' ? path.resolve(options.project) : undefined;
  const repo = typeof options.repo === 'string' ? path.resolve(options.repo) : undefined;
  const library = await loadTeamLibrary({
    home: context.home,
    ...(project === undefined ? {} : { project }),
    env: context.env,
  });
  const { spec } = await resolveStartableTeam(library, team as string);
  const launch = planRunLaunch(spec, agentChoiceOf(options), context.env);
  const { assertLaunchFitsSharedRun } = await import('./shared-run-agents.js');
  // Members left for another machine start with that machine's launch (`team run join`).
  const here = spec.members
    .map((member) => member.name)
    .filter((name) => !listOption(options.elsewhere).includes(name));
  // A run kept anywhere but the home's folder is shared with other machines.
  assertLaunchFitsSharedRun(launch, context.store.kind !== 'file', here);
  if (options.dryRun === true) {
    const { describeRunLaunch, renderRunLaunch } = await import('./describe-run-launch.js');
    const members = describeRunLaunch({
      home: context.home,
      spec,
      launch,
      ...(repo === undefined ? {} : { repo }),
    });
    context.output.result({ dryRun: true, team: spec.id, members }, () =>
      [
        `${spec.id}: ${members.length} members (dry run: nothing was started)`,
        renderRunLaunch(members),
      ].join('\n'),
    );
    return undefined;
  }
  const settings = await loadCliSettings(context, project);
  const tmux = wantsTmux(settings['tmux.enabled'], {
    noTmuxFlag: options.tmux === false,
    insideTmux: Boolean(context.env.TMUX),
  });
  const { runtime, machine } = await openProcessRuntime({
    home: context.home,
    store: context.store,
    env: context.env,
    tmux,
    settings,
    resumeOnStart: true,
    ...(project === undefined ? {} : { project }),
  });
  const elsewhere = listOption(options.elsewhere);
  if (elsewhere.length > 0 && machine === undefined) {
    const { TeamkitError } = await import('@teamkit/team-core/errors');
    throw new TeamkitError(
      'INVALID_INPUT',
      '--elsewhere leaves members for another machine to join, which needs the runs in a shared store: set TEAMKIT_STORE (or the store.url setting) to a NATS server.',
      { details: { elsewhere } },
    );
  }
  const { goalOf } = await import('./run-start-goal.js');
  const goal = goalOf(options);
  const { randomUUID } = await import('node:crypto');
  const { recordRunLaunch } = await import('../../process-host/run-launch.js');
  const runId = randomUUID();
  // Recorded before any member starts: whoever starts members later reads it.
  await recordRunLaunch(context.home, runId, launch);
  const result = await runtime.startRun(team as string, {
    runId,
    ...(repo === undefined ? {} : { repo }),
    ...(goal === undefined ? {} : { goal }),
    ...(elsewhere.length === 0 ? {} : { elsewhere }),
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
    const { machineSupervision } = await import('../../supervisor/member-heartbeats.js');
    const outcome = await superviseRun({
      runtime,
      runId: result.runId,
      signal: controller.signal,
      lock: { timeoutMs: settings['lock.timeoutMs'] },
      ...machineSupervision(context.store, machine, context.env),
    });
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
      ...(elsewhere.length === 0
        ? []
        : [
            `  left for another machine: ${elsewhere.join(', ')}; there, with the same TEAMKIT_STORE: team run join ${result.runId.slice(0, 8)} ${elsewhere.join(' ')} --repo <its clone> --agent <preset>`,
          ]),
      `  members run ${tmux ? 'in their own tmux panes' : 'in the background (logs in runtime/<run>/logs/)'}`,
      `  follow it: team dashboard ${result.runId.slice(0, 8)}`,
    ].join('\n'),
  );
  return undefined;
};

/** `team run list`: every run under the home, oldest first (a member sees its own run only). */
export const runListCommand: CommandHandler = async (context) => {
  const { output } = context;
  if ((await listRunIds(context)).length === 0) {
    output.result({ runs: [], problems: [] }, () => 'No runs.');
    return undefined;
  }
  const { listRuns } = await import('@teamkit/team-core/state');
  const { problemLines } = await import('../../problem-lines.js');
  const listing = await listRuns(context.home, { store: context.store });
  const own = (runId: string) => context.memberRun === undefined || runId === context.memberRun;
  const runs = listing.runs.filter((state) => own(state.runId));
  const problems = context.memberRun === undefined ? listing.problems : [];
  output.result(
    { runs: runs.map(runLine), problems },
    () =>
      [
        ...runs.map(
          (state) =>
            `${state.runId}  ${state.teamName.padEnd(14)} ${state.status.padEnd(18)} ${new Date(state.createdAt).toISOString()}`,
        ),
        ...problemLines(output, problems),
      ].join('\n') || 'No runs.',
  );
  return undefined;
};

/**
 * `team run stop <run> [--force] [--project DIR]`: members, panes, tasks and worktrees.
 * `--force` also removes worktrees with unsaved work and goes on past failing steps,
 * listing them; on a run already stopped it finishes the cleanup a plain stop refused.
 * Only the user and the run's lead may stop a run. Every signal goes to a process
 * verified as the run's at that moment; recorded processes that fail the check are
 * reported, never signalled.
 */
export const runStopCommand: CommandHandler = async (context, [run], options) => {
  const runId = await resolveRunId(context, run);
  const state = await (await context.openRun(runId)).state.read();
  await authorizeRunOperation(context, state, 'stop');
  if (context.caller.kind === 'member' && context.env.TEAMKIT_DETACHED_STOP !== '1') {
    // The lead stopping its own run: stop from outside the process group being stopped.
    const { runDetached } = await import('./detached-stop.js');
    return runDetached(
      [
        'run',
        'stop',
        runId,
        '--home',
        context.home,
        ...(options.force === true ? ['--force'] : []),
        ...(typeof options.project === 'string' ? ['--project', options.project] : []),
        ...(context.output.json ? ['--json'] : []),
      ],
      context.env,
    );
  }
  const { stopRunAsUser } = await import('../../supervisor/stop-run.js');
  const { report, supervisor, notSignalled, strays } = await stopRunAsUser({
    home: context.home,
    store: context.store,
    runId,
    env: context.env,
    force: options.force === true,
    ...(typeof options.project === 'string' ? { project: path.resolve(options.project) } : {}),
  });
  const { output } = context;
  output.result({ report, supervisor, notSignalled, strays }, () =>
    [
      `${output.style('green', 'stopped')} run ${runId} (${report.status})`,
      `  members stopped: ${report.stopped.join(', ') || '-'}`,
      ...report.notStopped.map(
        (entry) => `  ${output.style('yellow', 'not stopped')} ${entry.member}: ${entry.reason}`,
      ),
      `  tasks released: ${report.releasedTasks.length}`,
      ...strays.map(
        (stray) =>
          `  ${output.style('yellow', 'stopped unrecorded')} process ${stray.pid} of ${stray.member}`,
      ),
      ...notSignalled.map(
        (entry) => `  ${output.style('yellow', 'not signalled')} ${entry.member}: ${entry.reason}`,
      ),
      ...(supervisor.outcome === 'refused'
        ? [`  ${output.style('yellow', 'not signalled')} supervisor: ${supervisor.reason}`]
        : []),
      `  worktrees removed: ${report.removedWorktrees.length}`,
      ...report.removedWorktrees.map((removed) => `    ${removed}`),
      ...report.discardedWork.map(
        (entry) =>
          `  ${output.style('yellow', 'discarded')} ${entry.member}: ${entry.files.length} changed files, ${entry.commits.length} commits`,
      ),
      ...report.keptWorktrees.map(
        (entry) => `  ${output.style('yellow', 'kept')} ${entry.path}: ${entry.reason}`,
      ),
      ...report.problems.map(
        (problem) =>
          `  ${output.style('red', 'problem')} ${problem.step}${problem.member === undefined ? '' : ` ${problem.member}`}: [${problem.code}] ${problem.message}`,
      ),
    ].join('\n'),
  );
  return undefined;
};

/** `team run resume [run]`: recovery after a restart, then a supervisor again. */
export const runResumeCommand: CommandHandler = async (context, [run]) => {
  const { openProcessRuntime } = await import('../../supervisor/open-runtime.js');
  const { startBackgroundSupervisor } = await import('../../supervisor/background-supervisor.js');
  const { WORKING_RUN_STATUSES } = await import('@teamkit/team-core/state');
  const { runtime } = await openProcessRuntime({
    home: context.home,
    store: context.store,
    env: context.env,
  });
  const runIds: string[] = [];
  let report: unknown;
  let skipped: { runId: string; hostId: string }[] = [];
  const { recordedSessionNonces, stopStraySpawns } = await import(
    '../../process-host/spawn-records.js'
  );
  // A member process no record names must not run beside the member resume restarts.
  const stopStrays = async (runId: string) =>
    stopStraySpawns(context.home, runId, {
      keep: recordedSessionNonces(await (await context.openRun(runId)).state.read()),
    });
  if (run !== undefined || context.memberRun !== undefined) {
    const runId = await resolveRunId(context, run);
    await authorizeRunOperation(
      context,
      await (await context.openRun(runId)).state.read(),
      'resume',
    );
    await stopStrays(runId);
    report = await runtime.resumeRun(runId);
    runIds.push(runId);
  } else {
    const all = await runtime.resumeAll();
    report = all;
    runIds.push(...all.runs.map((entry) => entry.runId));
    skipped = all.skipped;
  }
  const supervised: string[] = [];
  for (const runId of runIds) {
    const state = await (await context.openRun(runId)).state.read();
    if (!WORKING_RUN_STATUSES.includes(state.status)) continue;
    if (run === undefined && context.memberRun === undefined) await stopStrays(runId);
    await startBackgroundSupervisor(context.home, runId, context.env);
    supervised.push(runId);
  }
  context.output.result({ report, supervised }, () =>
    [
      runIds.length === 0
        ? 'Nothing to resume.'
        : `Resumed ${runIds.join(', ')}; supervising ${supervised.length}.`,
      ...skipped.map((entry) => `Left ${entry.runId} alone: ${entry.hostId} hosts it.`),
    ].join('\n'),
  );
  return undefined;
};

/** `team run supervise <run>`: the supervisor loop in the foreground. */
export const runSuperviseCommand: CommandHandler = async (context, [run]) => {
  const runId = await resolveRunId(context, run);
  const state = await (await context.openRun(runId)).state.read();
  await authorizeRunOperation(context, state, 'supervise');
  const { assertProcessHosted } = await import('../../supervisor/host-kind.js');
  await assertProcessHosted(state, 'supervise');
  const { openProcessRuntime } = await import('../../supervisor/open-runtime.js');
  const { superviseRun } = await import('../../supervisor/supervise-run.js');
  const { runtime, host, settings, machine } = await openProcessRuntime({
    home: context.home,
    store: context.store,
    env: context.env,
    state,
  });
  const { machineSupervision } = await import('../../supervisor/member-heartbeats.js');
  const { recordedSessionNonces, stopStraySpawns } = await import(
    '../../process-host/spawn-records.js'
  );
  await stopStraySpawns(context.home, runId, {
    keep: recordedSessionNonces(await (await context.openRun(runId)).state.read()),
  });
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const outcome = await superviseRun({
    runtime,
    runId,
    signal: controller.signal,
    lock: { timeoutMs: settings['lock.timeoutMs'] },
    ...machineSupervision(context.store, machine, context.env),
  });
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  if (outcome === 'stopped' && machine !== undefined) {
    // Stopped from another machine, which does not signal this machine's processes.
    const { stopMachineMembers } = await import('../../supervisor/stop-machine-members.js');
    const ended = await stopMachineMembers(
      host,
      await (await context.openRun(runId)).state.read(),
      machine,
    );
    for (const { member, reason } of ended.failed)
      process.stderr.write(`supervisor: could not stop ${member}: ${reason}\n`);
  }
  context.output.result({ runId, outcome }, () => `Run ${runId}: ${outcome}.`);
  return undefined;
};

/**
 * `team run sweep [--all-hosts]`: removes the folders of deleted runs, and of failed runs
 * older than the `runs.failedRetentionHours` setting — of runs this CLI's process host
 * started, unless `--all-hosts`; the others are listed as left for their host.
 */
export const runSweepCommand: CommandHandler = async (context, _args, options) => {
  const { sweepRuns } = await import('@teamkit/team-core/state');
  const { loadCliSettings } = await import('../../cli-settings.js');
  const settings = await loadCliSettings(context);
  const { PROCESS_HOST_ID } = await import('../../process-host/index.js');
  const report = await sweepRuns(context.home, {
    store: context.store,
    failedRetentionMs: settings['runs.failedRetentionHours'] * 60 * 60_000,
    ...(options.allHosts === true ? {} : { hostId: PROCESS_HOST_ID }),
  });
  context.output.result({ report }, () =>
    [
      ...(report.removed.length === 0
        ? ['Nothing to sweep.']
        : report.removed.map((entry) => `removed ${entry.runId} (${entry.status})`)),
      ...report.skipped.map(
        (entry) => `left ${entry.runId} for its host (${entry.hostId}); --all-hosts sweeps it too`,
      ),
    ].join('\n'),
  );
  return undefined;
};

/**
 * `team run interrupt <run> <member>`: stops the member's current turn (a turn-based
 * member's runner ends the turn's process group and waits for its next mail; a
 * long-lived agent gets SIGINT). The user's and the lead's.
 */
export const runInterruptCommand: CommandHandler = async (context, [run, member]) => {
  const runId = await resolveRunId(context, run);
  const { findMember } = await import('@teamkit/team-core/state');
  const state = await (await context.openRun(runId)).state.read();
  await authorizeRunOperation(context, state, 'interrupt');
  findMember(state, member as string);
  const { openProcessRuntime } = await import('../../supervisor/open-runtime.js');
  const { runtime } = await openProcessRuntime({
    home: context.home,
    store: context.store,
    env: context.env,
    state,
  });
  const outcome = await runtime.interruptMember(runId, member as string);
  context.output.result({ runId, member, outcome }, () =>
    outcome === 'interrupted'
      ? `interrupted ${member}'s turn`
      : `${member} had no turn to interrupt (${outcome})`,
  );
  return undefined;
};

/** The members of a repeatable, comma-separated option (`--elsewhere w1,w2 --elsewhere w3`). */
function listOption(value: unknown): string[] {
  const values = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return values
    .flatMap((entry) => String(entry).split(','))
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}
