import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { TaskStatus } from '@teamkit/team-core';
import { TaskSchema } from '@teamkit/team-core/schema';
import { runPaths, serializeDocument } from '@teamkit/team-core/storage';
import { removeTree } from './remove-tree.js';

/** One task to seed: its id, its blockers and its status. */
export interface SeedTask {
  id: string;
  blockedBy: readonly string[];
  status: TaskStatus;
}

const SEED_BATCH = 64;

/**
 * Replaces the run's task list with `seeds`, written the way `createTask` leaves a list
 * (`tasks/<id>.json` validated against the task schema, symmetric `blocks`/`blockedBy`,
 * `.highwatermark` at the highest id). Used for untimed set-up only: creating thousands
 * of tasks one durable `createTask` at a time would take minutes per round.
 */
export async function seedTasks(home: string, runId: string, seeds: readonly SeedTask[]) {
  const folder = runPaths(home, runId).tasks;
  await removeTree(folder);
  await mkdir(folder, { recursive: true });
  const blocks = new Map<string, string[]>();
  for (const seed of seeds) {
    for (const blocker of seed.blockedBy) {
      const list = blocks.get(blocker) ?? [];
      list.push(seed.id);
      blocks.set(blocker, list);
    }
  }
  const now = Date.now();
  for (let first = 0; first < seeds.length; first += SEED_BATCH) {
    await Promise.all(
      seeds.slice(first, first + SEED_BATCH).map((seed) => {
        const task = {
          version: 1 as const,
          id: seed.id,
          subject: `task ${seed.id}`,
          description: '',
          status: seed.status,
          blocks: blocks.get(seed.id) ?? [],
          blockedBy: [...seed.blockedBy],
          createdAt: now,
          updatedAt: now,
          ...(seed.status === 'completed' ? { completedAt: now } : {}),
        };
        const file = path.join(folder, `${seed.id}.json`);
        return writeFile(file, serializeDocument(task, TaskSchema, file));
      }),
    );
  }
  const highest = seeds.reduce((max, seed) => Math.max(max, Number(seed.id)), 0);
  await writeFile(path.join(folder, '.highwatermark'), `${highest}\n`);
}
