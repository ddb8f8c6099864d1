import { createSqliteClaimer } from '../baselines/sqlite-claim.js';
import type { TaskClaimer } from '../baselines/task-claimer.js';
import { createOursClaimer } from '../figures/claim-ours.js';
import { isNotAvailable } from '../not-available.js';
import { shuffled } from '../shuffle.js';
import { serveWorker } from '../worker-pool.js';

/** Which claimant a claim process runs, on which store, as whom. */
export interface ClaimInit {
  kind: 'ours' | 'sqlite';
  folder: string;
  owner: string;
}

/** One round: try every task once, in an order shuffled by `seed`. */
export interface ClaimRound {
  taskIds: string[];
  seed: number;
}

let claimer: TaskClaimer | undefined;

serveWorker<ClaimInit, ClaimRound>({
  async init({ kind, folder, owner }) {
    const created =
      kind === 'ours'
        ? await createOursClaimer(folder, owner)
        : await createSqliteClaimer(folder, owner);
    if (isNotAvailable(created)) throw new Error(`${kind} not available: ${created.reason}`);
    claimer = created;
  },
  async run({ taskIds, seed }) {
    if (claimer === undefined) throw new Error('run before init');
    const won: string[] = [];
    for (const taskId of shuffled(taskIds, seed)) {
      if (await claimer.claim(taskId)) won.push(taskId);
    }
    return won;
  },
  async close() {
    await claimer?.close();
  },
});
