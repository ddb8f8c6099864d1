import type { TaskClaimer } from '../baselines/task-claimer.js';
import { shuffled } from '../shuffle.js';
import { createStoreClaimer } from '../store-figures/store-claimer.js';
import type { StoreTarget } from '../store-figures/store-targets.js';
import { serveWorker } from '../worker-pool.js';
import type { ClaimRound } from './claim-worker.js';

/** Which store a claim process opens, and as whom it claims. */
export interface StoreClaimInit {
  target: StoreTarget;
  owner: string;
}

let claimer: TaskClaimer | undefined;

serveWorker<StoreClaimInit, ClaimRound>({
  async init({ target, owner }) {
    claimer = await createStoreClaimer(target, owner);
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
