import { isTeamkitError, TeamkitError } from '@teamkit/team-core';
import type { PluginContext } from '../plugin-context.js';

/** The refusal a session outside any run gets from tools that need one. */
export function notInRun(): TeamkitError {
  return new TeamkitError(
    'RUN_NOT_FOUND',
    'This session is not part of a running team. Start one with team_create.',
  );
}

/** A tool's failure as the model reads it: `error CODE: message`; `undefined` for a bug. */
export function refusalText(error: unknown): string | undefined {
  return isTeamkitError(error) ? `error ${error.code}: ${error.message}` : undefined;
}

/** Starts delivering members' mail without making the caller wait; failures are logged. */
export function deliverSoon(ctx: PluginContext, runId: string, members: readonly string[]): void {
  void ctx.runtime().then(
    (runtime) =>
      Promise.all(
        members.map((member) =>
          runtime.deliverPending(runId, member).catch((error: unknown) => {
            ctx.log('warn', `delivery to ${member} failed: ${String(error)}`, { runId });
          }),
        ),
      ),
    (error: unknown) => ctx.log('error', `the team runtime could not start: ${String(error)}`),
  );
}
