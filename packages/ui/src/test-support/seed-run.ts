import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { TaskStatus } from '@teamkit/team-core';
import { TaskSchema, TeamSpecSchema } from '@teamkit/team-core/schema';
import { createRunState, transitionRun } from '@teamkit/team-core/state';
import { createFileStore, runPaths, serializeDocument } from '@teamkit/team-core/storage';

/** A run made for a test: its id and the names of its members (the lead first). */
export interface SeededRun {
  runId: string;
  members: string[];
}

/** Creates an active run of `lead` plus `workers` (no processes), as the runtime would record it. */
export async function seedRun(home: string, workers: readonly string[]): Promise<SeededRun> {
  const spec = TeamSpecSchema.parse({
    id: 'ui-test-team',
    name: 'UI test team',
    lead: 'lead',
    members: ['lead', ...workers].map((name) => ({ name, role: name, prompt: `You are ${name}.` })),
    policy: { bounds: { maxMembers: 64 } },
  });
  const state = await createRunState(
    home,
    {
      spec,
      teamSource: { scope: 'inline' },
      hostId: 'test',
    },
    { store: createFileStore({ root: home }) },
  );
  await transitionRun(home, state.runId, 'active', { store: createFileStore({ root: home }) });
  return { runId: state.runId, members: ['lead', ...workers] };
}

const STATUSES: readonly TaskStatus[] = [
  'pending',
  'claimed',
  'in_progress',
  'completed',
  'in_review',
  'approved',
  'blocked',
];

/**
 * Writes `count` tasks the way `createTask` leaves them (schema-checked documents and the
 * id watermark), spread over the board's columns and owners. Set-up only: creating
 * thousands of tasks one durable `createTask` at a time would take minutes.
 */
export async function seedTasks(
  home: string,
  run: SeededRun,
  count: number,
  statusOf: (index: number) => TaskStatus = (index) =>
    STATUSES[index % STATUSES.length] ?? 'pending',
): Promise<void> {
  const folder = runPaths(home, run.runId).tasks;
  await mkdir(folder, { recursive: true });
  const now = Date.now();
  const workers = run.members.slice(1);
  for (let first = 1; first <= count; first += 64) {
    const batch = [];
    for (let id = first; id < Math.min(first + 64, count + 1); id += 1) {
      const status = statusOf(id - 1);
      const owned = status !== 'pending';
      const task = {
        version: 1 as const,
        id: String(id),
        subject: `Task ${id}: a piece of the work`,
        description: `What task ${id} is about.`,
        status,
        ...(owned ? { owner: workers[id % workers.length] } : {}),
        blocks: [],
        blockedBy: [],
        ...(status === 'blocked' ? { blockedReason: 'waiting for a decision' } : {}),
        metadata: { role: workers[id % workers.length] },
        createdAt: now - id * 1000,
        updatedAt: now,
        ...(status === 'completed' || status === 'in_review' || status === 'approved'
          ? { completedAt: now }
          : {}),
      };
      const file = path.join(folder, `${id}.json`);
      batch.push(writeFile(file, serializeDocument(task, TaskSchema, file)));
    }
    await Promise.all(batch);
  }
  await writeFile(path.join(folder, '.highwatermark'), `${count}\n`);
}
