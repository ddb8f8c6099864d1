import { randomUUID } from 'node:crypto';
import { containedPath } from '../storage/contained-path.js';
import { runPaths } from '../storage/teamkit-home.js';
import { listRuns, resolveStateOptions, type StateOptions } from './run-state-store.js';

/** Options for {@link sweepRuns}. */
export interface SweepRunsOptions extends StateOptions {
  /** How long a failed run's folder is kept for inspection. Default 7 days. */
  failedRetentionMs?: number;
}

/** What {@link sweepRuns} removed and why. */
export interface SweepRunsReport {
  removed: { runId: string; status: 'deleted' | 'failed'; path: string }[];
  /** Leftovers of an earlier sweep that was cut short, removed now. */
  removedLeftovers: string[];
}

const DEFAULT_FAILED_RETENTION_MS = 7 * 24 * 60 * 60_000;
const TRASH_PREFIX = '.swept-';

/**
 * Removes the runtime folders of deleted runs, and of failed runs older than the
 * retention. It never touches a run in any other status (nor a corrupt one), and never
 * touches worktrees: those are removed by the worktree module's safe pruning. A folder
 * is first renamed aside, so a sweep cut short leaves no half-removed run behind.
 */
export async function sweepRuns(
  home: string,
  options: SweepRunsOptions = {},
): Promise<SweepRunsReport> {
  const { store, now } = resolveStateOptions(options);
  const retention = options.failedRetentionMs ?? DEFAULT_FAILED_RETENTION_MS;
  const runtime = containedPath(home, 'runtime');
  const report: SweepRunsReport = { removed: [], removedLeftovers: [] };

  for (const entry of await store.list(runtime)) {
    if (!entry.startsWith(TRASH_PREFIX)) continue;
    const leftover = containedPath(runtime, entry);
    await store.removeTree(leftover);
    report.removedLeftovers.push(leftover);
  }

  const { runs } = await listRuns(home, { store });
  for (const run of runs) {
    const status = run.status;
    const expired = status === 'failed' && now() - run.updatedAt > retention;
    if (status !== 'deleted' && !expired) continue;
    // Deleted and failed are terminal: nothing can move the run out of them, so the
    // folder can go without the state lock (which lives inside it).
    const root = runPaths(home, run.runId).root;
    const aside = containedPath(runtime, `${TRASH_PREFIX}${run.runId}-${randomUUID()}`);
    if (!(await store.move(root, aside))) continue;
    await store.removeTree(aside);
    report.removed.push({ runId: run.runId, status, path: root });
  }
  return report;
}
