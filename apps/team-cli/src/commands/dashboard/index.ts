import { resolveRunId } from '../../command-context.js';
import type { CommandHandler } from '../../command-handler.js';

/** `team dashboard [run] [--once]`: the live dashboard; Ctrl-C exits cleanly. */
export const dashboardCommand: CommandHandler = async (context, [run], options) => {
  const runId = await resolveRunId(context, run);
  const { output } = context;
  if (options.once === true || output.json) {
    const { collectRunStatus } = await import('@teamkit/team-core');
    const { renderDashboard } = await import('../../dashboard/render-dashboard.js');
    const { problemLines } = await import('../../problem-lines.js');
    const report = await collectRunStatus({ home: context.home, runId, store: context.store });
    output.result({ status: report }, () =>
      [
        renderDashboard(report, { paint: output.style, width: process.stdout.columns ?? 100 }),
        ...problemLines(output, report.problems),
      ].join('\n'),
    );
    return undefined;
  }
  const { runLiveDashboard } = await import('../../dashboard/live-dashboard.js');
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    await runLiveDashboard({
      home: context.home,
      store: context.store,
      runId,
      paint: output.style,
      signal: controller.signal,
    });
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  return undefined;
};
