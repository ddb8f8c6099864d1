import { afterEach, describe, expect, it } from 'vitest';
import { type NatsFixture, startNatsFixture } from './test-support/nats-fixture.js';
import { natsServerMissing } from './test-support/nats-test-server.js';

const missing = natsServerMissing();

describe.skipIf(missing !== undefined)('NATS store folders', () => {
  let fixture: NatsFixture | undefined;
  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
  });

  it('counts a collection as a folder whatever the order of its keys, and never a lock alone', async () => {
    fixture = await startNatsFixture();
    const { store } = fixture;
    await store.addEntry('runtime/r1/inboxes/lead', 'm1', 'x');
    // The ledger is written after the entry: its key now comes first in the stream.
    await store.addEntry('runtime/r1/inboxes/lead', 'm2', 'y', {
      admit: () => {},
    });
    await store.moveEntries('runtime/r1/inboxes/lead', ['m1', 'm2'], ['unread'], 'reserved');
    await store.withLock('runtime/r1/inboxes/lead', async () => {
      expect(await store.stat('runtime/r1/inboxes/lead')).toMatchObject({ kind: 'folder' });
    });
    expect(await store.list('runtime/r1/inboxes')).toEqual(['lead']);
    expect(await store.list('runtime/r1/inboxes/lead')).toEqual([]);

    let inside: unknown = 'not run';
    await store.withLock('runtime/r2/state.json', async () => {
      inside = await store.stat('runtime/r2');
    });
    expect(inside).toBeUndefined();
    expect(await store.list('')).toEqual(['runtime']);
    expect(await store.list('runtime')).toEqual(['r1']);
  });
});
