import { createSqliteClaimStore } from '../baselines/sqlite-claim.js';
import type { ClaimStore } from '../baselines/task-claimer.js';
import { auditClaims } from '../double-claims.js';
import type { Contender, FigureDefinition, RoundSettings } from '../figure.js';
import { isNotAvailable } from '../not-available.js';
import { startWorkerPool, type WorkerPool } from '../worker-pool.js';
import type { ClaimInit, ClaimRound } from '../workers/claim-worker.js';
import type { StoreClaimInit } from '../workers/store-claim-worker.js';
import { createStoreClaimStore } from './store-claimer.js';
import { type StoreTarget, startFigureNatsServer } from './store-targets.js';

/** Sizes of the store claim figure. */
export interface StoreClaimSettings extends RoundSettings {
  processes: number;
  tasks: number;
}

const STORE_CLAIM_WORKER = new URL('../workers/store-claim-worker.js', import.meta.url);
const SQLITE_CLAIM_WORKER = new URL('../workers/claim-worker.js', import.meta.url);

function claimContender(options: {
  key: string;
  label: string;
  script: URL;
  inits: (owner: string) => StoreClaimInit | ClaimInit;
  store: ClaimStore;
  settings: StoreClaimSettings;
  onClose?: () => Promise<void>;
}): Contender {
  const { settings, store } = options;
  let pool: WorkerPool | undefined;
  const owners = Array.from({ length: settings.processes }, (_, index) => `claimer-${index}`);
  return {
    key: options.key,
    label: options.label,
    unit: 'claim/s',
    better: 'higher',
    async setup() {
      pool = await startWorkerPool(options.script, owners.map(options.inits));
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
        throw new Error(`${options.label}: ${audit.unclaimed.length} tasks were never claimed`);
      }
      if (audit.ownerMismatches.length > 0) {
        throw new Error(`${options.label}: ${audit.ownerMismatches.length} stored owners differ`);
      }
      return { value: taskIds.length / (wallMs / 1000), doubleClaims: audit.doubleClaims.length };
    },
    async teardown() {
      await pool?.close();
      await store.close();
      await options.onClose?.();
    },
  };
}

function storeContender(
  key: string,
  label: string,
  target: StoreTarget,
  store: ClaimStore,
  settings: StoreClaimSettings,
  onClose?: () => Promise<void>,
): Contender {
  return claimContender({
    key,
    label,
    script: STORE_CLAIM_WORKER,
    inits: (owner) => ({ target, owner }),
    store,
    settings,
    onClose,
  });
}

/**
 * The store's claim-like primitive under contention: 8 processes each read every task
 * and update the unowned ones at the revision they read (compare-and-set), so exactly one
 * wins each; NATS store beside the file store and SQLite's conditional UPDATE.
 */
export const storeClaimFigure: FigureDefinition<StoreClaimSettings> = {
  id: 'store-claim',
  title: 'store claim (read + update at revision), 8 processes: NATS store vs file store',
  headline: 'NATS claim',
  settings: (quick) =>
    quick
      ? { warmup: 1, rounds: 3, processes: 8, tasks: 100 }
      : { warmup: 1, rounds: 5, processes: 8, tasks: 600 },
  async ours({ settings }) {
    const server = await startFigureNatsServer();
    if (isNotAvailable(server)) return server;
    const target = server.target(`bench-claim-${process.pid}`);
    const store = await createStoreClaimStore(target);
    return [
      storeContender('ours-nats', 'NATS store read + update', target, store, settings, () =>
        server.close(),
      ),
    ];
  },
  async baselines({ settings, folder }) {
    const fileTarget: StoreTarget = { kind: 'file', root: await folder('file-store') };
    const sqliteFolder = await folder('sqlite');
    return [
      storeContender(
        'file-store',
        'file store read + update',
        fileTarget,
        await createStoreClaimStore(fileTarget),
        settings,
      ),
      claimContender({
        key: 'sqlite',
        label: "SQLite UPDATE … WHERE status='pending'",
        script: SQLITE_CLAIM_WORKER,
        inits: (owner) => ({ kind: 'sqlite', folder: sqliteFolder, owner }),
        store: await createSqliteClaimStore(sqliteFolder),
        settings,
      }),
    ];
  },
  ratios: [
    { label: 'file store read + update', numerator: 'ours-nats', denominator: 'file-store' },
    { label: 'SQLite conditional UPDATE', numerator: 'ours-nats', denominator: 'sqlite' },
  ],
};
