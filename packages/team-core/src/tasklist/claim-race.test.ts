import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileStore } from '../storage/index.js';
import { createRunFixture, type RunFixture } from '../test-support/run-fixture.js';
import { killAllWorkers, startWorker } from '../test-support/worker-process.js';
import { createTaskList } from './create-task-list.js';

const WORKER = fileURLToPath(new URL('./__fixtures__/claim-worker.mjs', import.meta.url));
const PROCESSES = 8;
const TASKS = 200;

let fixture: RunFixture;
beforeEach(async () => {
  fixture = await createRunFixture({
    members: [
      { name: 'lead', isLead: true },
      ...Array.from({ length: PROCESSES }, (_, i) => ({
        name: i === 0 ? 'writer' : `writer-${i + 1}`,
      })),
    ],
  });
});
afterEach(async () => {
  killAllWorkers();
  await fixture.cleanup();
});

describe('claim race (real processes)', () => {
  it(`${PROCESSES} processes race for each of ${TASKS} tasks: exactly one owner each`, async () => {
    const tasks = createTaskList({
      store: createFileStore({ root: fixture.home }),
      home: fixture.home,
      runId: fixture.runId,
    });
    for (let i = 0; i < TASKS; i += 1) await tasks.createTask('lead', { subject: `task ${i + 1}` });
    const members = Array.from({ length: PROCESSES }, (_, i) =>
      i === 0 ? 'writer' : `writer-${i + 1}`,
    );
    const workers = members.map((member) =>
      startWorker(WORKER, [fixture.home, fixture.runId, member, String(TASKS)]),
    );
    const exits = await Promise.all(workers.map((worker) => worker.exited));
    for (const [index, exit] of exits.entries()) {
      expect(exit.code, workers[index]?.stderr.join('')).toBe(0);
    }
    const results = workers.map(
      (worker) => JSON.parse(worker.lines.at(-1) ?? '{}') as { member: string; won: string[] },
    );
    const total = results.reduce((sum, result) => sum + result.won.length, 0);
    expect(total).toBe(TASKS);
    const winnerOf = new Map<string, string>();
    for (const result of results) {
      for (const id of result.won) {
        expect(winnerOf.has(id), `task ${id} won twice`).toBe(false);
        winnerOf.set(id, result.member);
      }
    }
    const { tasks: stored, problems } = await tasks.listTasks();
    expect(problems).toEqual([]);
    expect(stored).toHaveLength(TASKS);
    for (const task of stored) {
      expect(task.status).toBe('claimed');
      expect(task.owner).toBe(winnerOf.get(task.id));
    }
  });
});
