import { createTaskList } from '@teamkit/team-core';
import { createFileStore } from '@teamkit/team-core/storage';
import type { NotAvailable } from '../not-available.js';
import { BENCH_LOCK, ensureBenchRun } from './bench-run.js';
import { seedTasks } from './seed-tasks.js';

/** One task of the ready-queue fixture. */
export interface ReadyQueueTask {
  id: string;
  dependsOn: string[];
  status: 'pending' | 'completed';
}

/** Teamkit's task list as the ready-queue figure uses it. */
export interface ReadySubject {
  /** Writes `tasks` (ids, dependencies, statuses as given) under the folder; not timed. */
  seed(tasks: readonly ReadyQueueTask[]): Promise<void>;
  /** Calls `readyTasks` once and resolves with how many tasks are ready. */
  readyTasks(): Promise<number>;
  close(): Promise<void>;
}

/** Teamkit's ready queue over a large task list with dependencies, in a bench run under `folder`. */
export async function createOursReadySubject(folder: string): Promise<ReadySubject | NotAvailable> {
  const runId = await ensureBenchRun(folder);
  const tasks = createTaskList({
    store: createFileStore({ root: folder }),
    home: folder,
    runId,
    lock: BENCH_LOCK,
  });
  return {
    async seed(fixture) {
      await seedTasks(
        folder,
        runId,
        fixture.map((task) => ({ id: task.id, blockedBy: task.dependsOn, status: task.status })),
      );
    },
    async readyTasks() {
      return (await tasks.readyTasks()).length;
    },
    async close() {},
  };
}
