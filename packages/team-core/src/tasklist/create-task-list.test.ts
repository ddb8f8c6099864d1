import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isTeamkitError, TeamkitError, type TeamkitErrorCode } from '../errors/index.js';
import { createFileStore, readRunEvents } from '../storage/index.js';
import type { TeamkitStore } from '../storage/teamkit-store.js';
import { createRunFixture, type RunFixture } from '../test-support/run-fixture.js';
import { createTaskList, type TaskList } from './create-task-list.js';

let fixture: RunFixture;
let tasks: TaskList;

beforeEach(async () => {
  fixture = await createRunFixture();
  let clock = 1_000;
  tasks = createTaskList({
    store: createFileStore({ root: fixture.home }),
    home: fixture.home,
    runId: fixture.runId,
    now: () => clock++,
  });
});
afterEach(async () => {
  await fixture.cleanup();
});

async function expectRefusedWithoutWrites(
  code: TeamkitErrorCode,
  action: () => Promise<unknown>,
): Promise<Error> {
  const before = await fixture.snapshot();
  const error = await action().then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(isTeamkitError(error, code), `expected ${code}, got ${String(error)}`).toBe(true);
  expect(await fixture.snapshot()).toEqual(before);
  return error as Error;
}

const create = (subject: string, extra: { blockedBy?: string[]; blocks?: string[] } = {}) =>
  tasks.createTask('lead', { subject, description: `${subject} details`, ...extra });

describe('ids', () => {
  it('issues increasing ids and never reuses one after a delete', async () => {
    expect((await create('a')).id).toBe('1');
    expect((await create('b')).id).toBe('2');
    await tasks.deleteTask('lead', '2');
    expect((await create('c')).id).toBe('3');
  });

  it('rebuilds a missing or corrupt watermark from the highest existing id', async () => {
    await create('a');
    await create('b');
    await create('c');
    const watermark = path.join(fixture.paths.tasks, '.highwatermark');
    await writeFile(watermark, 'garbage');
    expect((await create('d')).id).toBe('4');
    await rm(watermark);
    expect((await create('e')).id).toBe('5');
    await writeFile(watermark, '1\n');
    expect((await create('f')).id).toBe('6');
    expect(JSON.parse(await readFile(fixture.paths.task('1'), 'utf8')).subject).toBe('a');
  });

  it('counts a corrupt task file as a used id and reports it in listTasks', async () => {
    await create('a');
    await writeFile(fixture.paths.task('7'), '{"torn');
    expect((await create('b')).id).toBe('8');
    const listing = await tasks.listTasks();
    expect(listing.tasks.map((t) => t.id)).toEqual(['1', '8']);
    expect(listing.problems).toEqual([
      expect.objectContaining({ code: 'CORRUPT_DOCUMENT', path: fixture.keys.task('7') }),
    ]);
    expect(await readFile(fixture.paths.task('7'), 'utf8')).toBe('{"torn');
  });
});

describe('claims and ownership', () => {
  it('claims a pending task; a second claimer gets ALREADY_CLAIMED', async () => {
    await create('a');
    const claimed = await tasks.claimTask('writer', '1');
    expect(claimed).toMatchObject({ status: 'claimed', owner: 'writer' });
    await expectRefusedWithoutWrites('ALREADY_CLAIMED', () => tasks.claimTask('writer-2', '1'));
  });

  it('compares owners exactly: writer-2 is not writer', async () => {
    await create('a');
    await tasks.claimTask('writer', '1');
    await expectRefusedWithoutWrites('NOT_OWNER', () =>
      tasks.setTaskStatus('writer-2', '1', 'in_progress'),
    );
    expect((await tasks.listTasks({ owner: 'writer-2' })).tasks).toEqual([]);
    expect((await tasks.listTasks({ owner: 'writer' })).tasks).toHaveLength(1);
  });

  it('refuses claiming with open blockers, listing them', async () => {
    await create('a');
    await create('b');
    await create('c', { blockedBy: ['1', '2'] });
    await tasks.claimTask('writer', '1');
    await tasks.setTaskStatus('writer', '1', 'in_progress');
    await tasks.setTaskStatus('writer', '1', 'completed');
    const error = await expectRefusedWithoutWrites('BLOCKED_BY', () =>
      tasks.claimTask('writer', '3'),
    );
    expect((error as { details?: unknown }).details).toMatchObject({ blockedBy: ['2'] });
    expect((await tasks.readyTasks()).map((t) => t.id)).toEqual(['2']);
  });

  it('refuses to complete a task whose blocker was reopened', async () => {
    await create('a');
    await create('b', { blockedBy: ['1'] });
    await tasks.claimTask('writer', '1');
    await tasks.setTaskStatus('writer', '1', 'in_progress');
    await tasks.setTaskStatus('writer', '1', 'completed');
    await tasks.claimTask('writer-2', '2');
    await tasks.setTaskStatus('writer-2', '2', 'in_progress');
    await tasks.setTaskStatus('lead', '1', 'in_review');
    await tasks.setTaskStatus('lead', '1', 'pending', { note: 'tests missing' });
    await expectRefusedWithoutWrites('BLOCKED_BY', () =>
      tasks.setTaskStatus('writer-2', '2', 'completed'),
    );
  });

  it('lets the lead review, approve, cancel and reassign but not do the owner’s work', async () => {
    await create('a');
    await tasks.claimTask('writer', '1');
    await expectRefusedWithoutWrites('NOT_OWNER', () =>
      tasks.setTaskStatus('lead', '1', 'in_progress'),
    );
    const reassigned = await tasks.reassignTask('lead', '1', 'writer-2');
    expect(reassigned.owner).toBe('writer-2');
    await expectRefusedWithoutWrites('NOT_LEAD', () =>
      tasks.reassignTask('writer-2', '1', 'writer'),
    );
    await tasks.setTaskStatus('writer-2', '1', 'in_progress');
    await tasks.setTaskStatus('writer-2', '1', 'completed');
    await tasks.setTaskStatus('writer-2', '1', 'in_review');
    await expectRefusedWithoutWrites('NOT_LEAD', () =>
      tasks.setTaskStatus('writer-2', '1', 'approved'),
    );
    const changes = await tasks.setTaskStatus('lead', '1', 'pending', { note: 'rename the flag' });
    expect(changes).toMatchObject({
      status: 'pending',
      owner: 'writer-2',
      needsFix: true,
      reviewNote: 'rename the flag',
    });
    await expectRefusedWithoutWrites('ALREADY_CLAIMED', () => tasks.claimTask('writer', '1'));
    await tasks.claimTask('writer-2', '1');
    await tasks.setTaskStatus('writer-2', '1', 'in_progress');
    await tasks.setTaskStatus('writer-2', '1', 'completed');
    const approved = await tasks.setTaskStatus('lead', '1', 'approved');
    expect(approved.status).toBe('approved');
    expect(approved.needsFix).toBeUndefined();
  });

  it('refuses an unknown caller and writes on a stopped run', async () => {
    await create('a');
    await expectRefusedWithoutWrites('UNKNOWN_MEMBER', () => tasks.claimTask('writer-3', '1'));
    await fixture.writeState({ status: 'deleting' });
    await expectRefusedWithoutWrites('RUN_NOT_ACTIVE', () => tasks.claimTask('writer', '1'));
    await expectRefusedWithoutWrites('RUN_NOT_ACTIVE', () => create('b'));
    expect((await tasks.listTasks()).tasks).toHaveLength(1);
  });

  it('releaseTasksOf returns a member’s open tasks to pending, unowned', async () => {
    for (const subject of ['a', 'b', 'c', 'd']) await create(subject);
    await tasks.claimTask('writer', '1');
    await tasks.claimTask('writer', '2');
    await tasks.setTaskStatus('writer', '2', 'in_progress');
    await tasks.claimTask('writer', '3');
    await tasks.setTaskStatus('writer', '3', 'in_progress');
    await tasks.setTaskStatus('writer', '3', 'completed');
    await tasks.claimTask('writer-2', '4');
    await expectRefusedWithoutWrites('NOT_LEAD', () => tasks.releaseTasksOf('writer-2', 'writer'));
    const released = await tasks.releaseTasksOf('lead', 'writer');
    expect(released.map((t) => [t.id, t.status, t.owner])).toEqual([
      ['1', 'pending', undefined],
      ['2', 'pending', undefined],
    ]);
    expect((await tasks.getTask('3')).owner).toBe('writer');
    expect((await tasks.getTask('4')).owner).toBe('writer-2');
    expect((await tasks.readyTasks()).map((t) => t.id)).toEqual(['1', '2']);
  });

  it('releaseTasksOf reads again a task its listing could not read, and releases it', async () => {
    for (const subject of ['a', 'b', 'c']) await create(subject);
    await tasks.claimTask('writer', '1');
    await tasks.claimTask('writer', '2');
    await tasks.setTaskStatus('writer', '2', 'in_progress');
    await tasks.claimTask('writer-2', '3');
    // The listing misses task 2 (unreadable at that moment) and reads task 1 as absent;
    // reading each task on its own works.
    const store = createFileStore({ root: fixture.home });
    const flaky: TeamkitStore = Object.create(store);
    flaky.readMany = async (keys) =>
      (await store.readMany(keys)).map((outcome, index) => {
        const key = keys[index] as string;
        if (key.endsWith('/2.json')) {
          return { error: new TeamkitError('CORRUPT_DOCUMENT', `${key} read torn`) };
        }
        return key.endsWith('/1.json') ? { value: undefined } : outcome;
      });
    const lead = createTaskList({ home: fixture.home, runId: fixture.runId, store: flaky });
    const released = await lead.releaseTasksOf('lead', 'writer');
    expect(released.map((t) => [t.id, t.status, t.owner])).toEqual([
      ['1', 'pending', undefined],
      ['2', 'pending', undefined],
    ]);
    expect((await tasks.getTask('3')).owner).toBe('writer-2');
  });

  it('releaseTasksOf passes over a task file that stays corrupt, releasing the rest', async () => {
    for (const subject of ['a', 'b']) await create(subject);
    await tasks.claimTask('writer', '1');
    await tasks.claimTask('writer', '2');
    await writeFile(fixture.paths.task('1'), '{ torn');
    const released = await tasks.releaseTasksOf('lead', 'writer');
    expect(released.map((t) => t.id)).toEqual(['2']);
    expect(await readFile(fixture.paths.task('1'), 'utf8')).toBe('{ torn');
  });
});

describe('status machine errors', () => {
  it('names from → to and the allowed moves', async () => {
    await create('a');
    await tasks.claimTask('writer', '1');
    const error = await expectRefusedWithoutWrites('INVALID_TRANSITION', () =>
      tasks.setTaskStatus('writer', '1', 'completed'),
    );
    expect(error.message).toContain('claimed → completed');
    expect(error.message).toContain('in_progress, pending, blocked, cancelled, deleted');
  });

  it('needs a reason to block or cancel, and unblocks back to pending', async () => {
    await create('a');
    await expectRefusedWithoutWrites('INVALID_INPUT', () =>
      tasks.setTaskStatus('lead', '1', 'blocked'),
    );
    const blocked = await tasks.setTaskStatus('lead', '1', 'blocked', {
      reason: 'waiting on API keys',
    });
    expect(blocked.blockedReason).toBe('waiting on API keys');
    const unblocked = await tasks.setTaskStatus('lead', '1', 'pending');
    expect(unblocked.blockedReason).toBeUndefined();
    const cancelled = await tasks.setTaskStatus('lead', '1', 'cancelled', { reason: 'dropped' });
    expect(cancelled.cancelledReason).toBe('dropped');
    await expectRefusedWithoutWrites('INVALID_TRANSITION', () =>
      tasks.setTaskStatus('lead', '1', 'pending'),
    );
  });

  it('refuses an unknown task id and a deleted one', async () => {
    await expectRefusedWithoutWrites('UNKNOWN_TASK', () => tasks.claimTask('writer', '42'));
    await create('a');
    await tasks.deleteTask('lead', '1');
    await expectRefusedWithoutWrites('UNKNOWN_TASK', () => tasks.claimTask('writer', '1'));
    await expectRefusedWithoutWrites('INVALID_INPUT', () => tasks.claimTask('writer', '../x'));
  });
});

describe('dependencies', () => {
  it('keeps blocks/blockedBy symmetric on create, add, remove and delete', async () => {
    await create('a');
    await create('b', { blockedBy: ['1'] });
    await create('c', { blocks: ['2'] });
    expect((await tasks.getTask('1')).blocks).toEqual(['2']);
    expect((await tasks.getTask('2')).blockedBy).toEqual(['1', '3']);
    expect((await tasks.getTask('3')).blocks).toEqual(['2']);
    await tasks.addDependency('lead', '1', '3');
    expect((await tasks.getTask('1')).blocks).toEqual(['2', '3']);
    expect((await tasks.getTask('3')).blockedBy).toEqual(['1']);
    await tasks.removeDependency('lead', '1', '2');
    expect((await tasks.getTask('2')).blockedBy).toEqual(['3']);
    await tasks.deleteTask('lead', '3');
    expect((await tasks.getTask('1')).blocks).toEqual([]);
    expect((await tasks.getTask('2')).blockedBy).toEqual([]);
    const { events } = await readRunEvents(fixture.store, fixture.keys.events);
    expect(events.map((e) => e.type)).toContain('task.deleted');
  });

  it('refuses unknown ids and cycles, naming the cycle', async () => {
    await expectRefusedWithoutWrites('UNKNOWN_TASK', () => create('x', { blockedBy: ['9'] }));
    await create('a');
    await create('b', { blockedBy: ['1'] });
    await create('c', { blockedBy: ['2'] });
    const error = await expectRefusedWithoutWrites('DEPENDENCY_CYCLE', () =>
      tasks.addDependency('lead', '3', '1'),
    );
    expect(error.message).toContain('3 → 1 → 2 → 3');
    await expectRefusedWithoutWrites('DEPENDENCY_CYCLE', () =>
      tasks.addDependency('lead', '1', '1'),
    );
    await expectRefusedWithoutWrites('DEPENDENCY_CYCLE', () =>
      create('d', { blockedBy: ['3'], blocks: ['1'] }),
    );
    await expectRefusedWithoutWrites('UNKNOWN_TASK', () => tasks.addDependency('lead', '1', '9'));
  });

  it('refuses a non-owner editing dependencies or details', async () => {
    await create('a');
    await create('b');
    await tasks.claimTask('writer', '2');
    await expectRefusedWithoutWrites('NOT_OWNER', () => tasks.addDependency('writer-2', '1', '2'));
    await expectRefusedWithoutWrites('NOT_OWNER', () =>
      tasks.updateTaskDetails('writer-2', '2', { subject: 'mine now' }),
    );
    await expectRefusedWithoutWrites('NOT_OWNER', () => tasks.deleteTask('writer-2', '2'));
    expect(
      (await tasks.updateTaskDetails('writer', '2', { activeForm: 'Writing b' })).activeForm,
    ).toBe('Writing b');
  });
});
