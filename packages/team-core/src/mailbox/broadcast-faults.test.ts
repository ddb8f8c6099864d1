import { readdir } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isTeamkitError, TeamkitError } from '../errors/index.js';
import { createPathStore, type PathStore, readRunEvents } from '../storage/index.js';
import { createRunFixture, type RunFixture } from '../test-support/run-fixture.js';
import { createMailbox } from './create-mailbox.js';

let fixture: RunFixture;
beforeEach(async () => {
  fixture = await createRunFixture();
});
afterEach(async () => {
  await fixture.cleanup();
});

/** The file store, with `fault` thrown by the calls `failing` picks. */
function faultyStore(
  failing: (method: keyof PathStore, target: string) => boolean,
  fault: () => Error,
): PathStore {
  const store = createPathStore();
  return new Proxy(store, {
    get(target, method: keyof PathStore) {
      const original = target[method];
      if (typeof original !== 'function') return original;
      return (first: string, ...rest: unknown[]) => {
        if (failing(method, first)) return Promise.reject(fault());
        return (original as (...args: unknown[]) => unknown).call(target, first, ...rest);
      };
    },
  });
}

const diskFull = () =>
  Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
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
      (method, target) =>
        method === 'writeVolatile' && target.startsWith(fixture.paths.inbox('writer-2')),
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
    const { events } = await readRunEvents(createPathStore(), fixture.paths.events);
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
    const store = createPathStore();
    const losingLocks: PathStore = {
      ...store,
      async withLock(file, fn, options) {
        const result = await store.withLock(file, fn, options);
        if (file === fixture.paths.inbox('writer-2')) {
          throw new TeamkitError('LOCK_COMPROMISED', `${file}.lock was taken over`);
        }
        return result;
      },
    };
    const mailbox = createMailbox({ home: fixture.home, runId: fixture.runId, store: losingLocks });
    const sent = await mailbox.sendMessage({ from: 'lead', to: '*', body: 'hello all' });
    expect(sent).toMatchObject({ delivered: ['writer', 'writer-2'], refused: [] });
    expect(await unreadIds('writer-2')).toEqual([`${sent.messageId}.json`]);
    const { events } = await readRunEvents(createPathStore(), fixture.paths.events);
    expect(events.at(-1)?.data).toMatchObject({ delivered: ['writer', 'writer-2'] });
  });

  it('throws with the per-recipient outcome when the stored copies cannot be logged', async () => {
    const store = faultyStore(
      (method, target) => method === 'appendLine' && target === fixture.paths.events,
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
      (method, target) =>
        method === 'writeVolatile' && target.startsWith(fixture.paths.inbox('writer')),
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
