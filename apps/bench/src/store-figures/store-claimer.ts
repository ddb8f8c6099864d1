import { isTeamkitError } from '@teamkit/team-core';
import type { TeamkitStore } from '@teamkit/team-core/storage';
import type { ClaimStore, TaskClaimer } from '../baselines/task-claimer.js';
import { openTargetStore, type StoreTarget } from './store-targets.js';

const TASKS = 'runtime/bench/tasks';
const taskKey = (id: string) => `${TASKS}/${id}.json`;

/** The parent's view of the store claim figure: seeds unowned tasks and reads owners back. */
export async function createStoreClaimStore(target: StoreTarget): Promise<ClaimStore> {
  const store = await openTargetStore(target);
  let seeded: string[] = [];
  return {
    async seed(count) {
      await store.removeTree(TASKS);
      seeded = Array.from({ length: count }, (_, index) => String(index + 1));
      for (const id of seeded) await store.create(taskKey(id), JSON.stringify({ owner: null }));
      return seeded;
    },
    async owners() {
      const owners = new Map<string, string | undefined>();
      for (const id of seeded) {
        const read = await store.read(taskKey(id));
        const owner =
          read === undefined ? null : (JSON.parse(read.text) as { owner: string | null }).owner;
        owners.set(id, owner ?? undefined);
      }
      return owners;
    },
    close: () => store.close(),
  };
}

/**
 * One claimant process: reads a task and, if it has no owner, writes itself as owner at
 * the revision it read. It won only when that update landed; `REVISION_CONFLICT` means
 * another claimant got there first.
 */
export async function createStoreClaimer(target: StoreTarget, owner: string): Promise<TaskClaimer> {
  const store: TeamkitStore = await openTargetStore(target);
  return {
    async claim(taskId) {
      const read = await store.read(taskKey(taskId));
      if (read === undefined) return false;
      if ((JSON.parse(read.text) as { owner: string | null }).owner !== null) return false;
      try {
        await store.update(taskKey(taskId), JSON.stringify({ owner }), read.revision);
        return true;
      } catch (error) {
        if (isTeamkitError(error, 'REVISION_CONFLICT')) return false;
        throw error;
      }
    },
    close: () => store.close(),
  };
}
