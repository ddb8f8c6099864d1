import type { StopRunReport } from '@teamkit/team-core';
import { stopBackgroundSupervisor } from './background-supervisor.js';
import { openProcessRuntime } from './open-runtime.js';

/**
 * Stops a run as `team run stop` does: its background supervisor first (so it does not
 * restart members), then members, panes, tasks and worktrees by the safety rule. `force`
 * also removes worktrees with unsaved work and goes on past failing steps, listing them.
 */
export async function stopRunAsUser(options: {
  home: string;
  runId: string;
  env: NodeJS.ProcessEnv;
  force?: boolean;
  /** A project whose settings (`worktree.cleanup`) apply too. */
  project?: string;
}): Promise<StopRunReport> {
  const { readRunState } = await import('@teamkit/team-core');
  const state = await readRunState(options.home, options.runId);
  await stopBackgroundSupervisor(options.home, options.runId);
  const { runtime } = await openProcessRuntime({
    home: options.home,
    env: options.env,
    state,
    ...(options.project === undefined ? {} : { project: options.project }),
  });
  const force = options.force === true;
  return runtime.stopRun(options.runId, { force, tolerateFailures: force });
}
