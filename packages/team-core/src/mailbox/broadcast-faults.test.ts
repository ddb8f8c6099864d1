import { readdir } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isTeamkitError, TeamkitError } from '../errors/index.js';
import { createFileStore, readRunEvents, runKeys, type TeamkitStore } from '../storage/index.js';
import { faultyStore } from '../storage/test-support/faulty-store.js';
import { createRunFixture, type RunFixture } from '../test-support/run-fixture.js';
import { createMailbox } from './create-mailbox.js';

let fixture: RunFixture;
beforeEach(async () => {
  fixture = await createRunFixture();
});
afterEach(async () => {
  await fixture.cleanup();
});

const diskFull = () =>
  new TeamkitError('IO_ERROR', 'No space left on the device (ENOSPC).', {
    details: { errno: 'ENOSPC' },
  });
const fileStore = () => createFileStore({ root: fixture.home });
const inboxKey = (member: string) => runKeys(fixture.runId).inbox(member);
const eventsKey = () => runKeys(fixture.runId).events;
const brokenStore = () => new Error('the store lost its connection');

async function unreadIds(member: string): Promise<string[]> {
  const names = await readdir(fixture.paths.inbox(member)).catch(() => []);
  return names.filter((name) => /^[0-9a-f-]{36}\.json$/.test(name));
}

describe('a broadcast whose write fails for one recipient', () => {
  it.each([
    ['a full disk', diskFull],
    ['a store failure without an errno code', brokenStore],
  ])('reports every recipient and logs the stored copies (%s)', async (_, fault) => {
    // Writing writer-2's copy fails; writer's copy (written first) is stored.
    const store = faultyStore(
      fileStore(),
      (method, key) => method === 'addEntry' && key === inboxKey('writer-2'),
      fault,
    );
    const mailbox = createMailbox({ home: fixture.home, runId: fixture.runId, store });
    const sent = await mailbox.sendMessage({ from: 'lead', to: '*', body: 'hello all' });
    expect(sent.delivered).toEqual(['writer']);
    expect(sent.refused).toEqual([
      expect.objectContaining({ member: 'writer-2', code: 'IO_ERROR' }),
    ]);
    expect(await unreadIds('writer')).toEqual([`${sent.messageId}.json`]);
    expect(await unreadIds('writer-2')).toEqual([]);
    const { events } = await readRunEvents(fileStore(), eventsKey());
    expect(events).toEqual([
      expect.objectContaining({
        type: 'message.sent',
        ids: [sent.messageId],
        data: expect.objectContaining({
          delivered: ['writer'],
          refused: [{ member: 'writer-2', code: 'IO_ERROR' }],
        }),
      }),
    ]);
  });

  it('reports a copy that the store made visible before failing as delivered, and logs it', async () => {
    const store = fileStore();
    const losingLocks: TeamkitStore = Object.assign(Object.create(store) as TeamkitStore, {
      async addEntry(...args: Parameters<TeamkitStore['addEntry']>) {
        await store.addEntry(...args);
        if (args[0] === inboxKey('writer-2')) {
          throw new TeamkitError('LOCK_COMPROMISED', `${args[0]}.lock was taken over`);
        }
      },
    });
    const mailbox = createMailbox({ home: fixture.home, runId: fixture.runId, store: losingLocks });
    const sent = await mailbox.sendMessage({ from: 'lead', to: '*', body: 'hello all' });
    expect(sent).toMatchObject({ delivered: ['writer', 'writer-2'], refused: [] });
    expect(await unreadIds('writer-2')).toEqual([`${sent.messageId}.json`]);
    const { events } = await readRunEvents(fileStore(), eventsKey());
    expect(events.at(-1)?.data).toMatchObject({ delivered: ['writer', 'writer-2'] });
  });

  it('throws with the per-recipient outcome when the stored copies cannot be logged', async () => {
    const store = faultyStore(
      fileStore(),
      (method, key) => method === 'append' && key === eventsKey(),
      diskFull,
    );
    const mailbox = createMailbox({ home: fixture.home, runId: fixture.runId, store });
    const error = await mailbox
      .sendMessage({ from: 'lead', to: '*', body: 'hello all' })
      .catch((caught: unknown) => caught);
    expect(isTeamkitError(error, 'IO_ERROR'), String(error)).toBe(true);
    const details = (error as { details?: Record<string, unknown> }).details;
    expect(details).toMatchObject({ delivered: ['writer', 'writer-2'], refused: [] });
    const messageId = details?.messageId as string;
    expect(await unreadIds('writer')).toEqual([`${messageId}.json`]);
    expect(await unreadIds('writer-2')).toEqual([`${messageId}.json`]);
  });

  it('gives a direct send that fails in the store a typed error and stores nothing', async () => {
    const store = faultyStore(
      fileStore(),
      (method, key) => method === 'addEntry' && key === inboxKey('writer'),
      brokenStore,
    );
    const mailbox = createMailbox({ home: fixture.home, runId: fixture.runId, store });
    const error = await mailbox
      .sendMessage({ from: 'lead', to: 'writer', body: 'hello' })
      .catch((caught: unknown) => caught);
    expect(isTeamkitError(error, 'IO_ERROR'), String(error)).toBe(true);
    expect(await unreadIds('writer')).toEqual([]);
  });
});
