import type { StopRunReport } from '@teamkit/team-core';
import { stopBackgroundSupervisor } from './background-supervisor.js';
import { openProcessRuntime } from './open-runtime.js';

/**
 * Stops a run as `team run stop` does: its background supervisor first (so it does not
 * restart members), then members, panes, tasks and worktrees by the safety rule.
 */
export async function stopRunAsUser(options: {
  home: string;
  runId: string;
  env: NodeJS.ProcessEnv;
  force?: boolean;
}): Promise<StopRunReport> {
  const { readRunState } = await import('@teamkit/team-core');
  const state = await readRunState(options.home, options.runId);
  await stopBackgroundSupervisor(options.home, options.runId);
  const { runtime } = await openProcessRuntime({ home: options.home, env: options.env, state });
  return runtime.stopRun(options.runId, { force: options.force === true });
}
