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

describe('task list input', () => {
  it('refuses a 3,000-character reason with INVALID_INPUT and writes nothing', async () => {
    const tasks = createTaskList({
      store: createFileStore({ root: fixture.home }),
      home: fixture.home,
      runId: fixture.runId,
    });
    const task = await tasks.createTask('lead', { subject: 'long reasons' });
    const before = await fixture.snapshot();
    for (const to of ['blocked', 'cancelled', 'deleted'] as const) {
      const error = await tasks
        .setTaskStatus('lead', task.id, to, { reason: 'r'.repeat(3_000) })
        .catch((caught: unknown) => caught);
      expect(isTeamkitError(error, 'INVALID_INPUT'), `${to}: ${String(error)}`).toBe(true);
      expect((error as Error).message).toContain('reason');
    }
    expect(await fixture.snapshot()).toEqual(before);
  });

  it('refuses metadata that is not JSON with INVALID_INPUT', async () => {
    const tasks = createTaskList({
      store: createFileStore({ root: fixture.home }),
      home: fixture.home,
      runId: fixture.runId,
    });
    const error = await tasks
      .createTask('lead', { subject: 'odd', metadata: { size: 10n } as never })
      .catch((caught: unknown) => caught);
    expect(isTeamkitError(error, 'INVALID_INPUT'), String(error)).toBe(true);
  });
});
