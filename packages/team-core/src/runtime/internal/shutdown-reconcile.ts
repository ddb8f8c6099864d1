import { errorMessage } from '../../errors/index.js';
import { readRunState, requireLead, transitionMember } from '../../state/index.js';
import { closeMemberPane } from '../../tmux/index.js';
import { stopMemberSession } from './member-session.js';
import { oneAtATimePerRun } from './one-at-a-time-per-run.js';
import type { RuntimeContext } from './runtime-context.js';
import type { Spawner } from './spawning.js';

/**
 * Creates the reconcile pass: members that approved their shutdown are stopped, their pane
 * closed and their open tasks released, then they become `terminated` and waiting members
 * may start. A member whose session could not be stopped keeps `shutdown_approved` (the
 * next pass retries) and the failure is logged as `member.stop_failed`; a pane that would
 * not close is logged as `member.pane_close_failed`. One pass per run at a time, so
 * concurrent idle reports never stop a member twice.
 */
export function createShutdownReconcile(
  ctx: RuntimeContext,
  spawner: Spawner,
): (runId: string) => Promise<string[]> {
  async function reconcileOnce(runId: string): Promise<string[]> {
    const state = await readRunState(ctx.home, runId, ctx.stateOptions);
    const finished: string[] = [];
    for (const member of state.members) {
      if (member.status !== 'shutdown_approved') continue;
      const outcome = await stopMemberSession(ctx.host, state, member);
      if (outcome.kind === 'not-stopped') {
        await ctx.event(runId, 'member.stop_failed', [member.name], {
          reason: outcome.reason,
          code: outcome.code,
        });
        continue;
      }
      const layout = state.tmuxLayout;
      if (ctx.tmux !== undefined && layout?.paneIds[member.name] !== undefined) {
        try {
          await closeMemberPane(ctx.tmux.runner, runId, layout, member.name);
        } catch (error) {
          await ctx.event(runId, 'member.pane_close_failed', [member.name], {
            reason: errorMessage(error),
          });
        }
      }
      await ctx.tasks(runId).releaseTasksOf(requireLead(state).name, member.name);
      await transitionMember(ctx.home, runId, member.name, 'terminated', {
        ...ctx.stateOptions,
        reason: 'shutdown approved',
      });
      await ctx.event(runId, 'member.terminated', [member.name]);
      finished.push(member.name);
    }
    if (finished.length > 0) await spawner.spawnWaitingMembers(runId);
    return finished;
  }
  return oneAtATimePerRun(reconcileOnce);
}
