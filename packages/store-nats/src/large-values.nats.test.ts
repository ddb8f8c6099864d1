import { Objm } from '@nats-io/obj';
import { afterEach, describe, expect, it } from 'vitest';
import { connectLink } from './connect-link.js';
import type { NatsLink } from './nats-link.js';
import { type NatsFixture, startNatsFixture } from './test-support/nats-fixture.js';
import { natsServerMissing } from './test-support/nats-test-server.js';

const missing = natsServerMissing();

describe.skipIf(missing !== undefined)('NATS store values larger than a message', () => {
  let fixture: NatsFixture | undefined;
  let link: NatsLink | undefined;
  afterEach(async () => {
    await link?.close();
    await fixture?.close();
    link = undefined;
    fixture = undefined;
  });

  async function objectNames(): Promise<string[]> {
    link ??= await connectLink({
      servers: (fixture as NatsFixture).server.url,
      bucketPrefix: (fixture as NatsFixture).store.bucketPrefix,
      replicas: 1,
      timeoutMs: 10_000,
    });
    const objects = await new Objm(link.js).open(link.names.blobBucket);
    return (await objects.list()).filter((info) => !info.deleted).map((info) => info.name);
  }

  it('keeps texts over the server message size in the object store, and removes them with their keys', async () => {
    fixture = await startNatsFixture();
    const { store } = fixture;
    const big = (seed: string) => `${seed}:${'ü'.repeat(1_500_000)}`; // ~3 MB, over the 1 MiB message limit
    const first = await store.create('runtime/r1/team.json', big('one'));
    expect(await store.read('runtime/r1/team.json')).toEqual({ text: big('one'), revision: first });
    expect(await store.stat('runtime/r1/team.json')).toMatchObject({
      kind: 'value',
      size: Buffer.byteLength(big('one')),
    });
    const second = await store.update('runtime/r1/team.json', big('two'), first);
    expect((await store.read('runtime/r1/team.json'))?.text).toBe(big('two'));
    await expect(store.update('runtime/r1/team.json', big('x'), first)).rejects.toMatchObject({
      code: 'REVISION_CONFLICT',
    });
    await store.addEntry('runtime/r1/inboxes/lead', 'm1', big('message'));
    await store.moveEntries('runtime/r1/inboxes/lead', ['m1'], ['unread'], 'reserved');
    expect(await store.readEntry('runtime/r1/inboxes/lead', 'm1', 'reserved')).toBe(big('message'));
    expect(await store.listEntries('runtime/r1/inboxes/lead', 'reserved')).toEqual([
      expect.objectContaining({ id: 'm1', size: Buffer.byteLength(big('message')) }),
    ]);
    await store.put('runtime/r2/state.json', big('other run'));
    expect(await objectNames()).toHaveLength(4); // first, second (replaced), message, other run

    // The value the update replaced is no longer pointed to: the clean-up removes it.
    expect(await store.removeStaleTemporaries('', 0)).toBe(1);
    expect(await objectNames()).toHaveLength(3);
    await store.removeTree('runtime/r1');
    expect(await store.read('runtime/r1/team.json')).toBeUndefined();
    expect(await objectNames()).toHaveLength(1);
    await store.remove('runtime/r2/state.json');
    expect(await objectNames()).toEqual([]);
    expect(second).not.toBe(first);
  });
});
