import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { runPaths } from '@teamkit/team-core/storage';
import { BENCH_RUN_ID } from '../figures/bench-run.js';
import type { ReadyQueueTask, ReadySubject } from '../figures/ready-ours.js';
import { seedTasks } from '../figures/seed-tasks.js';

interface RawTask {
  status: string;
  owner?: string;
  blockedBy: string[];
}

const DONE = new Set(['completed', 'approved']);

/**
 * The raw floor of a ready queue on Teamkit's layout: one `readdir` of the tasks folder,
 * a read + JSON.parse of each task file, and the ready rule (pending, unowned, every
 * blocker completed or approved) in memory. It validates nothing, checks no revision
 * and reports no corrupt file. Reads are synchronous, as in Teamkit's store, so the
 * ratio compares work, not call styles.
 */
export function createRawReadySubject(folder: string): ReadySubject {
  const tasksFolder = runPaths(folder, BENCH_RUN_ID).tasks;
  return {
    async seed(fixture: readonly ReadyQueueTask[]) {
      await seedTasks(
        folder,
        BENCH_RUN_ID,
        fixture.map((task) => ({ id: task.id, blockedBy: task.dependsOn, status: task.status })),
      );
    },
    async readyTasks() {
      const byId = new Map<string, RawTask>();
      for (const name of readdirSync(tasksFolder)) {
        if (!/^[1-9][0-9]*\.json$/.test(name)) continue;
        byId.set(
          name.slice(0, -'.json'.length),
          JSON.parse(readFileSync(path.join(tasksFolder, name), 'utf8')) as RawTask,
        );
      }
      let ready = 0;
      for (const task of byId.values()) {
        if (task.status !== 'pending' || task.owner !== undefined) continue;
        if (task.blockedBy.every((id) => DONE.has(byId.get(id)?.status ?? ''))) ready++;
      }
      return ready;
    },
    async close() {},
  };
}
