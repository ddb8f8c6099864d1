import { createTaskList, isTeamkitError, type TaskList } from '@teamkit/team-core';
import { createFileStore } from '@teamkit/team-core/storage';
import type { ClaimStore, TaskClaimer } from '../baselines/task-claimer.js';
import type { NotAvailable } from '../not-available.js';
import { BENCH_LOCK, BENCH_RUN_ID, ensureBenchRun } from './bench-run.js';
import { seedTasks } from './seed-tasks.js';

/**
 * Teamkit's task list as the claim figure's parent sees it: `seed(count)` replaces the
 * bench run's task list with `count` pending tasks (see {@link seedTasks});
 * `owners()` reads every owner back with `listTasks` for the audit.
 */
export async function createOursClaimStore(folder: string): Promise<ClaimStore | NotAvailable> {
  const runId = await ensureBenchRun(folder);
  const tasks = createTaskList({
    store: createFileStore({ root: folder }),
    home: folder,
    runId,
    lock: BENCH_LOCK,
  });
  return {
    async seed(count) {
      const ids = Array.from({ length: count }, (_, index) => String(index + 1));
      await seedTasks(
        folder,
        runId,
        ids.map((id) => ({ id, blockedBy: [], status: 'pending' })),
      );
      return ids;
    },
    async owners() {
      const { tasks: listed, problems } = await tasks.listTasks();
      if (problems.length > 0) throw new Error(`listTasks reported ${problems.length} problems`);
      return new Map(listed.map((task) => [task.id, task.owner]));
    },
    async close() {},
  };
}

/**
 * One claimant process's `claimTask` as member `owner`: resolves true only when this
 * call won the task; `ALREADY_CLAIMED` (someone else won) resolves false, any other
 * error fails the round.
 */
export async function createOursClaimer(
  folder: string,
  owner: string,
): Promise<TaskClaimer | NotAvailable> {
  const tasks: TaskList = createTaskList({
    store: createFileStore({ root: folder }),
    home: folder,
    runId: BENCH_RUN_ID,
    lock: BENCH_LOCK,
  });
  return {
    async claim(taskId) {
      try {
        await tasks.claimTask(owner, taskId);
        return true;
      } catch (error) {
        if (isTeamkitError(error) && error.code === 'ALREADY_CLAIMED') return false;
        throw error;
      }
    },
    async close() {},
  };
}
