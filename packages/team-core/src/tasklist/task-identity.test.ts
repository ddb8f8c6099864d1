import { readFile, writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isTeamkitError } from '../errors/index.js';
import { createFileStore } from '../storage/index.js';
import { createRunFixture, type RunFixture } from '../test-support/run-fixture.js';
import { createTaskList } from './create-task-list.js';

let fixture: RunFixture;
beforeEach(async () => {
  fixture = await createRunFixture();
});
afterEach(async () => {
  await fixture.cleanup();
});

describe('a task file whose id is not its name', () => {
  it('is refused as corrupt by every change and reported by listings, leaving both tasks alone', async () => {
    const tasks = createTaskList({
      store: createFileStore({ root: fixture.home }),
      home: fixture.home,
      runId: fixture.runId,
    });
    await tasks.createTask('lead', { subject: 'one' });
    await tasks.createTask('lead', { subject: 'two' });
    // 1.json now claims to be task 2.
    const two = await readFile(fixture.paths.task('2'), 'utf8');
    await writeFile(fixture.paths.task('1'), two);
    const before = await fixture.snapshot();
    for (const attempt of [
      () => tasks.claimTask('writer', '1'),
      () => tasks.setTaskStatus('lead', '1', 'blocked', { reason: 'wait' }),
      () => tasks.updateTaskDetails('lead', '1', { subject: 'renamed' }),
      () => tasks.deleteTask('lead', '1'),
      () => tasks.getTask('1'),
    ]) {
      const error = await attempt().catch((caught: unknown) => caught);
      expect(isTeamkitError(error, 'CORRUPT_DOCUMENT'), String(error)).toBe(true);
    }
    expect(await fixture.snapshot()).toEqual(before);
    const listing = await tasks.listTasks();
    expect(listing.tasks.map((task) => task.id)).toEqual(['2']);
    expect(listing.problems).toEqual([
      expect.objectContaining({ code: 'CORRUPT_DOCUMENT', path: fixture.keys.task('1') }),
    ]);
    // Task 2 itself still works.
    expect((await tasks.claimTask('writer', '2')).owner).toBe('writer');
  });
});
