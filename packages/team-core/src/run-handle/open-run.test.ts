import { readdir } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryStore } from '../storage/memory-store/create-memory-store.js';
import { createRunFixture, type RunFixture } from '../test-support/run-fixture.js';
import { openRun } from './open-run.js';

let fixture: RunFixture | undefined;
afterEach(async () => {
  await fixture?.cleanup();
  fixture = undefined;
});

describe('openRun', () => {
  it('refuses to open a run without a store (no default store for a home)', () => {
    expect(() => openRun({ home: '/nowhere', runId: crypto.randomUUID() } as never)).toThrowError(
      expect.objectContaining({ code: 'INVALID_INPUT' }),
    );
  });

  it('keeps every part of the run in the store it was given, none in the home folder', async () => {
    const store = createMemoryStore();
    fixture = await createRunFixture({ store });
    const run = openRun({ home: fixture.home, runId: fixture.runId, store, actor: 'lead' });
    expect((await run.state.read()).runId).toBe(fixture.runId);
    await run.mailbox.sendMessage({ from: 'lead', to: 'writer', body: 'hello' });
    const task = await run.tasks.createTask('lead', { subject: 'one' });
    await run.member('writer').claimTask(task.id);
    await run.state.transitionMember('writer-2', 'idle');
    const { events } = await run.events.read();
    expect(events.map((event) => event.type)).toEqual(
      expect.arrayContaining(['message.sent', 'task.created', 'task.claimed']),
    );
    expect((await run.member('writer').inbox()).map((message) => message.body)).toEqual(['hello']);
    expect(await readdir(fixture.home)).toEqual([]);
  });

  it('is what the mailbox and the task list work with: one object per run', async () => {
    fixture = await createRunFixture();
    const run = openRun({ home: fixture.home, runId: fixture.runId, store: fixture.store });
    expect(run.mailbox).toBe(run.mailbox);
    expect(run.tasks).toBe(run.tasks);
    expect((await run.readState()).runId).toBe(fixture.runId);
    await fixture.writeState({ status: 'completed' });
    await expect(run.writableState()).rejects.toMatchObject({ code: 'RUN_NOT_ACTIVE' });
    await expect(run.tasks.createTask('lead', { subject: 'late' })).rejects.toMatchObject({
      code: 'RUN_NOT_ACTIVE',
    });
  });
});
