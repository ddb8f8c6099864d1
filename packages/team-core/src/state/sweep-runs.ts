import path from 'node:path';
import { runKeys } from '../storage/run-keys.js';
import { listRuns } from './run-state-store.js';
import { resolveStateOptions, type StateOptions } from './state-options.js';
import { removeRunFolder, removeRunFolderLeftovers } from './state-storage.js';

/** Options for {@link sweepRuns}. */
export interface SweepRunsOptions extends StateOptions {
  /** How long a failed run's folder is kept for inspection. Default 7 days. */
  failedRetentionMs?: number;
  /** Given, only runs this kind of host started are swept; the others are listed in `skipped`. */
  hostId?: string;
}

/** What {@link sweepRuns} removed and why. */
export interface SweepRunsReport {
  removed: { runId: string; status: 'deleted' | 'failed'; path: string }[];
  /** How many leftovers of earlier removals that were cut short were removed now. */
  removedLeftovers: number;
  /** Finished runs of another kind of host, left for that host (or a sweep of every host). */
  skipped: { runId: string; hostId: string }[];
}

const DEFAULT_FAILED_RETENTION_MS = 7 * 24 * 60 * 60_000;

/**
 * Removes the runtime folders of deleted runs, and of failed runs older than the
 * retention. It never touches a run in any other status (nor a corrupt one), and never
 * touches worktrees: those are removed by the worktree module's safe pruning. A folder
 * is first renamed aside, so a sweep cut short leaves no half-removed run behind.
 */
export async function sweepRuns(home: string, options: SweepRunsOptions): Promise<SweepRunsReport> {
  const { store, now } = resolveStateOptions(options);
  const retention = options.failedRetentionMs ?? DEFAULT_FAILED_RETENTION_MS;
  const report: SweepRunsReport = {
    removed: [],
    removedLeftovers: await removeRunFolderLeftovers(store),
    skipped: [],
  };
  const { runs } = await listRuns(home, { store });
  for (const run of runs) {
    const status = run.status;
    const expired = status === 'failed' && now() - run.updatedAt > retention;
    if (status !== 'deleted' && !expired) continue;
    if (options.hostId !== undefined && run.hostId !== options.hostId) {
      report.skipped.push({ runId: run.runId, hostId: run.hostId });
      continue;
    }
    // Deleted and failed are terminal: nothing can move the run out of them, so the
    // folder can go without a compare-and-set on its state.
    if (!(await removeRunFolder(store, run.runId))) continue;
    report.removed.push({
      runId: run.runId,
      status,
      path: path.join(home, runKeys(run.runId).root),
    });
  }
  return report;
}
