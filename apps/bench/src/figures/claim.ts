import { createSqliteClaimStore } from '../baselines/sqlite-claim.js';
import type { ClaimStore } from '../baselines/task-claimer.js';
import { auditClaims } from '../double-claims.js';
import type { Contender, FigureDefinition, RoundSettings } from '../figure.js';
import { isNotAvailable } from '../not-available.js';
import { startWorkerPool, type WorkerPool } from '../worker-pool.js';
import type { ClaimInit, ClaimRound } from '../workers/claim-worker.js';
import { createOursClaimStore } from './claim-ours.js';

/** Sizes of the claim figure. */
export interface ClaimSettings extends RoundSettings {
  processes: number;
  tasks: number;
}

const CLAIM_WORKER = new URL('../workers/claim-worker.js', import.meta.url);

function claimContender(
  key: string,
  label: string,
  kind: ClaimInit['kind'],
  folder: string,
  store: ClaimStore,
  settings: ClaimSettings,
): Contender {
  let pool: WorkerPool | undefined;
  const owners = Array.from({ length: settings.processes }, (_, index) => `claimer-${index}`);
  return {
    key,
    label,
    unit: 'claim/s',
    better: 'higher',
    async setup() {
      const inits: ClaimInit[] = owners.map((owner) => ({ kind, folder, owner }));
      pool = await startWorkerPool(CLAIM_WORKER, inits);
    },
    async runRound(round) {
      if (pool === undefined) throw new Error('setup did not run');
      const taskIds = await store.seed(settings.tasks);
      const payloads: ClaimRound[] = owners.map((_, index) => ({
        taskIds,
        seed: round * 1_000 + index + 1,
      }));
      const { wallMs, results } = await pool.runRound(payloads);
      const claimsByOwner = new Map(
        owners.map((owner, index) => [owner, results[index] as string[]]),
      );
      const audit = auditClaims(taskIds, claimsByOwner, await store.owners());
      if (audit.doubleClaims.length === 0 && audit.unclaimed.length > 0) {
        throw new Error(`${label}: ${audit.unclaimed.length} tasks were never claimed`);
      }
      if (audit.ownerMismatches.length > 0) {
        throw new Error(
          `${label}: stored owner differs from the winner for ${audit.ownerMismatches.length} tasks`,
        );
      }
      return {
        value: taskIds.length / (wallMs / 1000),
        doubleClaims: audit.doubleClaims.length,
      };
    },
    async teardown() {
      await pool?.close();
      await store.close();
    },
  };
}

/** Claims under contention: several processes race for the same pending tasks. */
export const claimFigure: FigureDefinition<ClaimSettings> = {
  id: 'claim',
  title: 'claim under contention, 8 processes',
  headline: 'claim',
  settings: (quick) =>
    quick
      ? { warmup: 1, rounds: 3, processes: 8, tasks: 600 }
      : { warmup: 1, rounds: 5, processes: 8, tasks: 2000 },
  async ours({ settings, folder }) {
    const oursFolder = await folder('ours');
    const store = await createOursClaimStore(oursFolder);
    if (isNotAvailable(store)) return store;
    return [claimContender('ours', 'claimTask', 'ours', oursFolder, store, settings)];
  },
  async baselines({ settings, folder }) {
    const sqliteFolder = await folder('sqlite');
    const store = await createSqliteClaimStore(sqliteFolder);
    return [
      claimContender(
        'sqlite',
        "SQLite UPDATE … WHERE status='pending'",
        'sqlite',
        sqliteFolder,
        store,
        settings,
      ),
    ];
  },
  ratios: [
    {
      label: 'SQLite conditional UPDATE',
      numerator: 'ours',
      denominator: 'sqlite',
      target: { op: '>=', value: 0.5 },
    },
  ],
};
