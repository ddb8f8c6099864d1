import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isTeamkitError } from '../errors/index.js';
import { TASK_STATUSES, type Task, type TaskStatus } from '../schema/index.js';
import { createFileStore } from '../storage/index.js';
import { createRunFixture, type RunFixture } from '../test-support/run-fixture.js';
import { createTaskList } from './create-task-list.js';
import { findDependencyPath } from './dependency-graph.js';
import { canTaskTransition, TASK_STATUS_TRANSITIONS } from './task-status-machine.js';

let fixture: RunFixture;
beforeAll(async () => {
  fixture = await createRunFixture();
});
afterAll(async () => {
  await fixture.cleanup();
});

const MEMBERS = ['lead', 'writer', 'writer-2'] as const;

/** The rules of the status machine and its permissions, written independently of the code. */
function expectedOutcome(task: Task, caller: string, to: TaskStatus): 'ok' | string {
  if (to === 'claimed') {
    if (task.status === 'claimed' || task.status === 'in_progress') return 'ALREADY_CLAIMED';
    if (task.status !== 'pending') return 'INVALID_TRANSITION';
    if (task.owner !== undefined && task.owner !== caller) return 'ALREADY_CLAIMED';
    return 'ok';
  }
  if (!TASK_STATUS_TRANSITIONS[task.status].includes(to)) return 'INVALID_TRANSITION';
  const isLead = caller === 'lead';
  const isOwner = task.owner === caller;
  if (to === 'in_progress' || to === 'completed') return isOwner ? 'ok' : 'NOT_OWNER';
  if (to === 'approved' || (task.status === 'in_review' && to === 'pending')) {
    return isLead ? 'ok' : 'NOT_LEAD';
  }
  return isOwner || isLead ? 'ok' : 'NOT_OWNER';
}

describe('task status machine (property)', () => {
  it('the table never leaves a terminal status except to deleted', () => {
    for (const from of TASK_STATUSES) {
      for (const to of TASK_STATUS_TRANSITIONS[from]) {
        expect(TASK_STATUSES).toContain(to);
        if (from === 'approved' || from === 'cancelled') expect(to).toBe('deleted');
      }
      expect(canTaskTransition('deleted', from)).toBe(false);
    }
  });

  it('every random sequence of moves by random callers follows the machine and its permissions', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            caller: fc.constantFrom(...MEMBERS),
            to: fc.constantFrom(...TASK_STATUSES),
          }),
          { minLength: 1, maxLength: 14 },
        ),
        async (moves) => {
          run += 1;
          const tasks = createTaskList({
            store: createFileStore({ root: fixture.home }),
            home: fixture.home,
            runId: fixture.runId,
          });
          const created = await tasks.createTask('lead', { subject: `run ${run}` });
          let current: Task = created;
          for (const { caller, to } of moves) {
            const expected = expectedOutcome(current, caller, to);
            const outcome = await tasks
              .setTaskStatus(caller, current.id, to, { reason: 'because', note: 'fix it' })
              .then(
                (task) => ({ ok: true as const, task }),
                (error: unknown) => ({ ok: false as const, error }),
              );
            if (expected === 'ok') {
              expect(outcome.ok, `${current.status} → ${to} by ${caller}`).toBe(true);
              if (outcome.ok) {
                expect(outcome.task.status).toBe(to);
                current = outcome.task;
              }
            } else {
              expect(outcome.ok).toBe(false);
              if (!outcome.ok) expect(isTeamkitError(outcome.error, expected as never)).toBe(true);
            }
            if (current.status === 'deleted') break;
            const stored = await tasks.getTask(current.id);
            expect(stored).toEqual(current);
          }
        },
      ),
      { numRuns: 25 },
    );
  });
});

describe('dependency graph (property)', () => {
  it('random edits keep edges symmetric and acyclic, and refuse exactly the cycles', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            op: fc.constantFrom('add', 'add', 'add', 'remove', 'delete'),
            a: fc.integer({ min: 0, max: 4 }),
            b: fc.integer({ min: 0, max: 4 }),
          }),
          { minLength: 1, maxLength: 12 },
        ),
        async (edits) => {
          const local = await createRunFixture();
          try {
            const tasks = createTaskList({
              store: createFileStore({ root: local.home }),
              home: local.home,
              runId: local.runId,
            });
            const ids: string[] = [];
            for (let i = 0; i < 5; i += 1)
              ids.push((await tasks.createTask('lead', { subject: `t${i}` })).id);
            const live = new Set(ids);
            for (const { op, a, b } of edits) {
              const blocker = ids[a] as string;
              const blocked = ids[b] as string;
              const before = await snapshotGraph(tasks);
              if (op === 'delete') {
                if (live.has(blocker)) {
                  await tasks.deleteTask('lead', blocker);
                  live.delete(blocker);
                }
              } else if (!live.has(blocker) || !live.has(blocked)) {
                const error = await tasks.addDependency('lead', blocker, blocked).catch((e) => e);
                expect(isTeamkitError(error, 'UNKNOWN_TASK')).toBe(true);
              } else if (op === 'remove') {
                await tasks.removeDependency('lead', blocker, blocked);
              } else {
                const closes =
                  findDependencyPath((id) => before.get(id)?.blocks ?? [], blocked, blocker) !==
                  undefined;
                const error = await tasks.addDependency('lead', blocker, blocked).then(
                  () => undefined,
                  (e: unknown) => e,
                );
                expect(error === undefined, `add ${blocker} → ${blocked}`).toBe(!closes);
                if (closes) expect(isTeamkitError(error, 'DEPENDENCY_CYCLE')).toBe(true);
              }
              const graph = await snapshotGraph(tasks);
              for (const [id, task] of graph) {
                for (const next of task.blocks) expect(graph.get(next)?.blockedBy).toContain(id);
                for (const prev of task.blockedBy) expect(graph.get(prev)?.blocks).toContain(id);
                for (const next of task.blocks) {
                  expect(
                    findDependencyPath((x) => graph.get(x)?.blocks ?? [], next, id),
                  ).toBeUndefined();
                }
              }
            }
          } finally {
            await local.cleanup();
          }
        },
      ),
      { numRuns: 12 },
    );
  });
});

async function snapshotGraph(tasks: ReturnType<typeof createTaskList>): Promise<Map<string, Task>> {
  const { tasks: all } = await tasks.listTasks();
  return new Map(all.map((task) => [task.id, task]));
}
