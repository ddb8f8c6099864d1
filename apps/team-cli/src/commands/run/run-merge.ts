import { resolveRunId } from '../../command-context.js';
import type { CommandHandler } from '../../command-handler.js';
import { runToolAs } from '../../tool-command.js';

/**
 * `team run merge <run> [--into BRANCH] [--dry-run]`: merges every approved task's
 * recorded work into the run's base branch (or BRANCH), in dependency order, never
 * forcing; a conflict changes nothing and exits 4 with `MERGE_CONFLICT` naming the task
 * and its files. The user's and the lead's: the shared `run_merge` tool says so, and runs it.
 */
export const runMergeCommand: CommandHandler = async (context, [run], options) => {
  const runId = await resolveRunId(context, run);
  const { output: report } = await runToolAs(context, runId, 'run_merge', {
    into: options.into,
    dryRun: options.dryRun,
  });
  const { output } = context;
  const short = (commit: string | undefined) =>
    commit === undefined ? 'new' : commit.slice(0, 12);
  output.result({ report }, () =>
    [
      `${output.style('green', report.dryRun ? 'would merge' : report.changed ? 'merged' : 'nothing new to merge')} into ${report.into} (${short(report.from)} → ${short(report.to)})`,
      ...(report.fellBack === undefined
        ? []
        : [
            `  ${output.style('yellow', 'not into')} ${report.fellBack.from}: ${report.fellBack.reason}`,
          ]),
      ...(report.checkout === undefined || !report.changed
        ? []
        : [`  moved the checkout at ${report.checkout} forward`]),
      ...report.tasks.map(
        (task) =>
          `  #${task.id} ${task.subject}${task.owner === undefined ? '' : ` (${task.owner})`}: ${task.outcome === 'merged' ? `merged ${task.commit.slice(0, 12)}` : 'already there'}`,
      ),
      ...report.skipped.map(
        (task) =>
          `  ${output.style('dim', `#${task.id} ${task.subject}: left out (${task.reason === 'no-work' ? 'approved, but no work was recorded' : task.status})`)}`,
      ),
    ].join('\n'),
  );
  return undefined;
};
