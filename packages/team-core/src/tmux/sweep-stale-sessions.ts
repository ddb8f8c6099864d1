import { RunIdSchema } from '../schema/names.js';
import { listRuns, type StateOptions, WRITABLE_RUN_STATUSES } from '../state/index.js';
import { listPanes, listTeamkitSessions } from './tmux-layout.js';
import type { TmuxRunner } from './tmux-runner.js';

/** Options for {@link sweepStaleSessions}. */
export interface SweepStaleSessionsOptions extends StateOptions {
  runner: TmuxRunner;
  /** The Teamkit home whose run state decides what is stale. */
  home: string;
}

/** What {@link sweepStaleSessions} killed and kept. */
export interface SweepStaleSessionsReport {
  /** Names of teamkit sessions killed because their run is not active. */
  killedSessions: string[];
  /** Marked member panes (in other windows) killed because their run is not active. */
  killedPanes: string[];
  /** Teamkit sessions kept: their run is live, unreadable, or they carry no run mark. */
  keptSessions: string[];
}

/**
 * Kills teamkit sessions (and marked member panes left in other windows) whose run is
 * not live: missing, deleting, deleted, failed or orphaned. A run whose state cannot be
 * read is kept, and nothing without Teamkit's run mark is touched.
 */
export async function sweepStaleSessions(
  options: SweepStaleSessionsOptions,
): Promise<SweepStaleSessionsReport> {
  const { runner } = options;
  const listing = await listRuns(options.home, options);
  const status = new Map(listing.runs.map((run) => [run.runId, run.status]));
  const unreadable = new Set(
    listing.problems.map((problem) => problem.path.split(/[\\/]/).at(-2) ?? ''),
  );
  const stale = (runId: string) =>
    RunIdSchema.safeParse(runId).success &&
    !unreadable.has(runId) &&
    !WRITABLE_RUN_STATUSES.includes(status.get(runId) ?? 'deleted');

  return runner.serialize(async () => {
    const report: SweepStaleSessionsReport = {
      killedSessions: [],
      killedPanes: [],
      keptSessions: [],
    };
    const killedSessionIds = new Set<string>();
    for (const session of await listTeamkitSessions(runner)) {
      if (stale(session.runId)) {
        if ((await runner.tryRun(['kill-session', '-t', session.sessionId])).exitCode === 0) {
          report.killedSessions.push(session.name);
          killedSessionIds.add(session.sessionId);
        }
      } else {
        report.keptSessions.push(session.name);
      }
    }
    for (const pane of await listPanes(runner)) {
      if (pane.runId === '' || killedSessionIds.has(pane.sessionId) || !stale(pane.runId)) continue;
      if ((await runner.tryRun(['kill-pane', '-t', pane.paneId])).exitCode === 0) {
        report.killedPanes.push(pane.paneId);
      }
    }
    return report;
  });
}
