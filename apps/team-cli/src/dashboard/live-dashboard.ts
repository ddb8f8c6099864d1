import type { RunStatusReport } from '@teamkit/team-core';
import type { TeamkitStore } from '@teamkit/team-core/storage';
import { type Paint, renderDashboard } from './render-dashboard.js';

/** Options for {@link runLiveDashboard}. */
export interface LiveDashboardOptions {
  home: string;
  runId: string;
  /** The store that holds the run; its watch of the run's keys triggers the redraws. */
  store: TeamkitStore;
  stdout?: NodeJS.WriteStream;
  paint?: Paint;
  signal?: AbortSignal;
  /** The periodic redraw that backs the store's watch; default 500 ms. */
  intervalMs?: number;
  /** Return when the run is stopped (deleted or failed); default true. */
  exitWhenStopped?: boolean;
}

const CLEAR = '\u001b[H\u001b[2J';
const HIDE_CURSOR = '\u001b[?25l';
const SHOW_CURSOR = '\u001b[?25h';

/**
 * Redraws the dashboard of a run until `signal` aborts (or the run stops). The store's
 * watch of the run's keys (whichever store holds the run: files, NATS) redraws at once on
 * a change; a timer redraws anyway, for what the watch is slow to see and for the clock.
 * On a TTY the screen is redrawn in place; elsewhere a line is printed whenever the
 * picture changes.
 */
export async function runLiveDashboard(
  options: LiveDashboardOptions,
): Promise<RunStatusReport | undefined> {
  const [{ collectRunStatus }, { runKeys }] = await Promise.all([
    import('@teamkit/team-core'),
    import('@teamkit/team-core/storage'),
  ]);
  const { store } = options;
  const stdout = options.stdout ?? process.stdout;
  const tty = stdout.isTTY === true;
  let last: RunStatusReport | undefined;
  let lastText = '';
  let wake: (() => void) | undefined;
  let changed = false;
  const poke = () => {
    changed = true;
    wake?.();
  };
  // The store batches a burst of writes into one call, so one redraw follows each burst.
  // A watch that fails (at the start or later) leaves the timer's redraws.
  const unwatch = await store
    .watch(runKeys(options.runId).root, poke, { onError: () => {} })
    .catch(() => async () => {});
  options.signal?.addEventListener('abort', poke, { once: true });
  if (tty) stdout.write(HIDE_CURSOR);
  try {
    while (options.signal?.aborted !== true) {
      try {
        changed = false;
        last = await collectRunStatus({ home: options.home, runId: options.runId, store });
      } catch {
        // A torn read during a write: the next pass sees the settled file.
      }
      if (last !== undefined) {
        if (tty) {
          const text = renderDashboard(last, {
            width: stdout.columns ?? 100,
            ...(options.paint === undefined ? {} : { paint: options.paint }),
          });
          if (text !== lastText) stdout.write(`${CLEAR}${text}\n${'\n'}Ctrl-C to exit.\n`);
          lastText = text;
        } else {
          const line = progressLine(last);
          if (line !== lastText) stdout.write(`${line}\n`);
          lastText = line;
        }
        if (
          options.exitWhenStopped !== false &&
          (last.status === 'deleted' || last.status === 'failed')
        )
          break;
      }
      // Not node:timers/promises: the watch ends this wait early from a callback.
      await new Promise<void>((resolve) => {
        // A change that arrived while the status was read is drawn at once.
        if (changed || options.signal?.aborted === true) {
          resolve();
          return;
        }
        const timer = setTimeout(resolve, options.intervalMs ?? 500);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    }
  } finally {
    await unwatch();
    if (tty) stdout.write(SHOW_CURSOR);
  }
  return last;
}

/** One line of progress for a non-TTY: task counts and who is working on what. */
export function progressLine(report: RunStatusReport): string {
  const working = report.members
    .filter((member) => member.currentTask !== undefined)
    .map((member) => `${member.name}:#${member.currentTask?.id} ${member.currentTask?.status}`)
    .join(' ');
  const byStatus = Object.entries(report.tasksByStatus)
    .filter(([, count]) => count > 0)
    .map(([status, count]) => `${status} ${count}`)
    .join(', ');
  return `[${report.status}] tasks ${report.progress.done}/${report.progress.total} done${byStatus ? ` (${byStatus})` : ''}${working ? ` | ${working}` : ''}`;
}
