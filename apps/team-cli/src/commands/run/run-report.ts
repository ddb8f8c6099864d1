import { resolveRunId } from '../../command-context.js';
import type { CommandHandler } from '../../command-handler.js';
import { runToolAs } from '../../tool-command.js';

/**
 * `team run report [run] [--json]`: what a run did — tasks with owner, status, recorded
 * work and where it was merged; commits per branch; messages; turns per member;
 * duration; the goal's criteria and their evidence; merges; worktrees left. Read-only;
 * the shared `run_report` tool.
 */
export const runReportCommand: CommandHandler = async (context, [run]) => {
  const runId = await resolveRunId(context, run);
  const { output, text } = await runToolAs(context, runId, 'run_report', {});
  context.output.result({ report: output.report }, () => text);
  return undefined;
};
