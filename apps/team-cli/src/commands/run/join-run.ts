import path from 'node:path';
import { authorizeRunOperation } from '../../command-access.js';
import { resolveRunId } from '../../command-context.js';
import type { CommandHandler } from '../../command-handler.js';

/**
 * `team run join <run> <members...> --repo DIR`: runs members of a run started on another
 * machine here. The run's state, mail and tasks stay in the shared store; what is this
 * machine's is made here: each member's worktree (of this machine's clone of the
 * repository, from the run's base commit), its process, its log and prompt files, and a
 * supervisor that keeps this machine's members going and their heartbeats fresh. The
 * members must have been left for another machine (`team run start --elsewhere`); a
 * member two machines join at once runs on one of them only.
 */
export const runJoinCommand: CommandHandler = async (context, [run, ...members], options) => {
  const core = {
    ...(await import('@teamkit/team-core')),
    ...(await import('@teamkit/team-core/schema')),
    ...(await import('@teamkit/team-core/state')),
    ...(await import('@teamkit/team-core/storage')),
    ...(await import('@teamkit/team-core/worktree')),
  };
  const runId = await resolveRunId(context, run);
  const { machineIdOf } = await import('../../supervisor/machine-id.js');
  const machine = await machineIdOf(context.home, context.store);
  if (machine === undefined) {
    throw new core.TeamkitError(
      'INVALID_INPUT',
      'team run join needs the runs in a shared store: set TEAMKIT_STORE (or the store.url setting) to the NATS server the run was started on.',
      { details: { runId } },
    );
  }
  const joined = await context.openRun(runId, { actor: 'user' });
  const state = await joined.state.read();
  await authorizeRunOperation(context, state, 'supervise');
  const { assertProcessHosted } = await import('../../supervisor/host-kind.js');
  await assertProcessHosted(state, 'join');
  const repo = path.resolve(String(options.repo));
  const spec = await core.readDocument(
    context.store,
    core.runKeys(runId).team,
    core.TeamSpecSchema,
  );
  if (spec === undefined) {
    throw new core.TeamkitError('RUN_NOT_FOUND', `Run ${runId} has no saved team (team.json).`, {
      details: { runId },
    });
  }
  const names = [...new Set(members)];
  // Decided before anything is written: a launch this machine cannot run places nobody.
  const { agentChoiceOf, planRunLaunch } = await import('./plan-run-launch.js');
  const launch = planRunLaunch(spec.value, agentChoiceOf(options), context.env);
  const { assertLaunchFitsSharedRun } = await import('./shared-run-agents.js');
  assertLaunchFitsSharedRun(launch, true, names);
  await core.placeMembers(context.home, runId, names, machine, {
    actor: 'user',
    store: context.store,
  });
  // Each member gets a worktree of this machine's clone, from the commit the run's other
  // worktrees started from (fetch it first if this clone lacks it).
  const baseRef = state.members.find((member) => member.baseRef !== undefined)?.baseRef;
  for (const name of names) {
    const wish = spec.value.members.find((member) => member.name === name);
    if (wish?.worktree !== true) continue;
    const worktree = await core.createMemberWorktree({
      home: context.home,
      repoRoot: repo,
      runId,
      member: name,
      ...(baseRef === undefined ? {} : { baseRef }),
    });
    await joined.state.update((draft) => {
      const target = draft.members.find((member) => member.name === name);
      if (target !== undefined) {
        target.worktreePath = worktree.path;
        target.branch = worktree.branch;
        target.baseRef = worktree.baseCommit;
      }
      return draft;
    });
  }
  const { recordRunLaunch } = await import('../../process-host/run-launch.js');
  await recordRunLaunch(context.home, runId, launch);
  const { openProcessRuntime } = await import('../../supervisor/open-runtime.js');
  const { runtime } = await openProcessRuntime({
    home: context.home,
    store: context.store,
    env: context.env,
    tmux: false,
  });
  const spawned = await runtime.spawnWaitingMembers(runId);
  // The first heartbeats, before this machine's supervisor is up to beat: the other
  // machines start judging a member as soon as they see its session.
  const { beatMember } = await import('../../supervisor/member-heartbeats.js');
  const after = await joined.state.read();
  for (const member of after.members) {
    if (!spawned.includes(member.name) || member.sessionId === undefined) continue;
    await beatMember(runId, member.name, {
      machine,
      sessionId: member.sessionId,
      store: context.store,
    });
  }
  const { startBackgroundSupervisor } = await import('../../supervisor/background-supervisor.js');
  const supervisorPid = await startBackgroundSupervisor(context.home, runId, context.env);
  const waiting = names.filter((name) => !spawned.includes(name));
  context.output.result(
    { runId, machine, joined: names, spawned, waiting, supervisor: { pid: supervisorPid } },
    () =>
      [
        `joined run ${runId} as machine ${machine}`,
        `  members here: ${spawned.join(', ') || '-'}${waiting.length > 0 ? `; waiting for the parallel bound: ${waiting.join(', ')}` : ''}`,
        `  follow it from any machine: team board ${runId.slice(0, 8)}`,
      ].join('\n'),
  );
  return undefined;
};
