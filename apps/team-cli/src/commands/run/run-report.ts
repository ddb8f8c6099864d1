import { callerClient, resolveRunId } from '../../command-context.js';
import type { CommandHandler } from '../../command-handler.js';

/**
 * `team run report [run] [--json]`: what a run did — tasks with owner, status, recorded
 * work and where it was merged; commits per branch; messages; turns per member;
 * duration; the goal's criteria and their evidence; merges; worktrees left. Read-only.
 */
export const runReportCommand: CommandHandler = async (context, [run]) => {
  const runId = await resolveRunId(context, run);
  const client = await callerClient(context, runId);
  const report = await client.report();
  const { renderRunReport } = await import('@teamkit/team-core');
  context.output.result({ report }, () => renderRunReport(report));
  return undefined;
};
