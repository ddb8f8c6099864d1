import type { RunStatusReport } from '@teamkit/team-core';
import { listRunIds, resolveRunId } from '../../command-context.js';
import type { CommandHandler } from '../../command-handler.js';

/** `team run status [run]`: one run's report, or a line per working run. */
export const runStatusCommand: CommandHandler = async (context, [run], _options) => {
  const { output } = context;
  if (run === undefined && context.memberRun === undefined) {
    // Answered from the folder listing alone when there is nothing to read: this call is timed.
    const ids = await listRunIds(context);
    if (ids.length === 0) {
      output.result({ runs: [] }, () => 'No runs.');
      return undefined;
    }
    // Runs whose state says they are finished are not listed here: the schemas and the run
    // state module load only when some run may be working (or its document needs checking).
    const { looksFinished } = await import('@teamkit/team-core/home');
    const finished = await Promise.all(ids.map((id) => looksFinished(context.store, id)));
    if (finished.every(Boolean)) {
      output.result({ runs: [], problems: [] }, () => 'No working runs.');
      return undefined;
    }
    const { listRuns, WORKING_RUN_STATUSES } = await import('@teamkit/team-core/state');
    const { problemLines } = await import('../../problem-lines.js');
    const { runLine } = await import('./run-line.js');
    const listing = await listRuns(context.home, { store: context.store });
    const working = listing.runs.filter((state) => WORKING_RUN_STATUSES.includes(state.status));
    output.result(
      { runs: working.map(runLine), problems: listing.problems },
      () =>
        [
          ...working.map((state) => `${state.runId}  ${state.teamName}  ${state.status}`),
          ...problemLines(output, listing.problems),
        ].join('\n') || 'No working runs.',
    );
    return undefined;
  }
  const runId = await resolveRunId(context, run);
  const { collectRunStatus } = await import('@teamkit/team-core');
  const report: RunStatusReport = await collectRunStatus({
    home: context.home,
    runId,
    store: context.store,
  });
  const { renderDashboard } = await import('../../dashboard/render-dashboard.js');
  const { problemLines } = await import('../../problem-lines.js');
  output.result({ status: report }, () =>
    [
      renderDashboard(report, { paint: output.style, width: process.stdout.columns ?? 100 }),
      ...problemLines(output, report.problems),
    ].join('\n'),
  );
  return undefined;
};
