import { watch } from 'node:fs';
import path from 'node:path';
import type { RunStatusReport } from '@teamkit/team-core';
import { type Paint, renderDashboard } from './render-dashboard.js';

/** Options for {@link runLiveDashboard}. */
export interface LiveDashboardOptions {
  home: string;
  runId: string;
  stdout?: NodeJS.WriteStream;
  paint?: Paint;
  signal?: AbortSignal;
  /** The periodic redraw that backs the file watcher; default 500 ms. */
  intervalMs?: number;
  /** Return when the run is stopped (deleted or failed); default true. */
  exitWhenStopped?: boolean;
}

const CLEAR = '\u001b[H\u001b[2J';
const HIDE_CURSOR = '\u001b[?25l';
const SHOW_CURSOR = '\u001b[?25h';

/**
 * Redraws the dashboard of a run until `signal` aborts (or the run stops). A watcher on
 * the run folder redraws at once on a change; a timer redraws anyway, since watchers
 * miss events. On a TTY the screen is redrawn in place; elsewhere a line is printed
 * whenever the picture changes.
 */
export async function runLiveDashboard(
  options: LiveDashboardOptions,
): Promise<RunStatusReport | undefined> {
  const { collectRunStatus } = await import('@teamkit/team-core');
  const stdout = options.stdout ?? process.stdout;
  const tty = stdout.isTTY === true;
  const root = path.join(options.home, 'runtime', options.runId);
  let last: RunStatusReport | undefined;
  let lastText = '';
  let wake: (() => void) | undefined;
  const poke = () => wake?.();
  let watcher: ReturnType<typeof watch> | undefined;
  try {
    watcher = watch(root, { recursive: true }, poke);
    watcher.on('error', () => {});
  } catch {
    watcher = undefined;
  }
  options.signal?.addEventListener('abort', poke, { once: true });
  if (tty) stdout.write(HIDE_CURSOR);
  try {
    while (options.signal?.aborted !== true) {
      try {
        last = await collectRunStatus({ home: options.home, runId: options.runId });
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
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, options.intervalMs ?? 500);
        wake = () => {
          clearTimeout(timer);
          // Let a burst of writes settle before reading again.
          setTimeout(resolve, 50);
        };
      });
      wake = undefined;
    }
  } finally {
    watcher?.close();
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
