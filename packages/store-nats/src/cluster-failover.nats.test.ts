import { setTimeout as delay } from 'node:timers/promises';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { type NatsCluster, startNatsCluster } from '@teamkit/test-harness';
import { afterEach, describe, expect, it } from 'vitest';
import { createNatsStore, type NatsStore } from './create-nats-store.js';
import { natsServerMissing, uniquePrefix } from './test-support/nats-test-server.js';

// A three-node cluster on loopback with the store's streams on all three: losing the node
// that leads them leaves the store usable, for handles already open and for new ones. A
// store uses existing streams with the replicas they have, whatever it was asked for.
const missing = natsServerMissing();
const KEY = 'runtime/r1/state.json';

async function openFirst(servers: string, bucketPrefix: string): Promise<NatsStore> {
  // The nodes are ready before the cluster elected its JetStream leader.
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      return await createNatsStore({
        servers: servers.split(','),
        bucketPrefix,
        replicas: 3,
        timeoutMs: 20_000,
      });
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await delay(500);
    }
  }
}

async function leaderOf(servers: string, stream: string): Promise<string | undefined> {
  const nc = await connect({ servers: servers.split(',') });
  try {
    const jsm = await jetstreamManager(nc);
    return (await jsm.streams.info(stream)).cluster?.leader;
  } finally {
    await nc.close();
  }
}

describe.skipIf(missing !== undefined)('NATS store on a three-node cluster', () => {
  let cluster: NatsCluster | undefined;
  const opened: NatsStore[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close().catch(() => {})));
    await cluster?.close();
    cluster = undefined;
  });

  it('opens and works on while the cluster elects a new leader for the streams of a killed one', async () => {
    cluster = await startNatsCluster(['n1', 'n2', 'n3']);
    const bucketPrefix = uniquePrefix('c');
    const first = await openFirst(cluster.urls, bucketPrefix);
    opened.push(first);
    await first.put(KEY, 'before');
    const leader = await leaderOf(cluster.urls, `KV_${bucketPrefix}`);
    const node = cluster.nodes.find((candidate) => candidate.name === leader);
    expect(node, `leader ${leader}`).toBeDefined();
    await node?.kill();

    // Opened while the survivors elect a new leader: it waits for them, within its timeout.
    const second = await createNatsStore({
      servers: cluster.urls.split(','),
      bucketPrefix,
      timeoutMs: 20_000,
    });
    opened.push(second);
    expect((await second.read(KEY))?.text).toBe('before');
    await second.put(KEY, 'after');
    // The handle that was open when the node died goes on too.
    expect((await first.read(KEY))?.text).toBe('after');
    await first.addEntry('runtime/r1/inboxes/lead', 'm1', 'hello');
    expect(await second.entryState('runtime/r1/inboxes/lead', 'm1')).toBe('unread');
  }, 180_000);

  it('creates the streams with the replicas asked for, and opens streams made with others as they are', async () => {
    cluster = await startNatsCluster(['n1', 'n2', 'n3']);
    const servers = cluster.urls;
    const replicated = uniquePrefix('r');
    const three = await openFirst(servers, replicated);
    opened.push(three);
    expect(three.replicas).toBe(3);
    expect(await three.streamReplicas()).toEqual({
      [`KV_${replicated}`]: 3,
      [`${replicated}-logs`]: 3,
    });
    // Streams made with one replica (by an older release, or a store opened without the
    // setting) stay as they are: a store asking for three opens and uses them.
    const single = uniquePrefix('s');
    opened.push(
      await createNatsStore({
        servers: servers.split(','),
        bucketPrefix: single,
        timeoutMs: 20_000,
      }),
    );
    const later = await createNatsStore({
      servers: servers.split(','),
      bucketPrefix: single,
      replicas: 3,
      timeoutMs: 20_000,
    });
    opened.push(later);
    await later.put(KEY, 'works');
    expect((await later.read(KEY))?.text).toBe('works');
    expect(await later.streamReplicas()).toEqual({ [`KV_${single}`]: 1, [`${single}-logs`]: 1 });
    // And the other way round: a store asking for one replica uses the three-replica streams.
    const fewer = await createNatsStore({
      servers: servers.split(','),
      bucketPrefix: replicated,
      timeoutMs: 20_000,
    });
    opened.push(fewer);
    expect(await fewer.streamReplicas()).toEqual({
      [`KV_${replicated}`]: 3,
      [`${replicated}-logs`]: 3,
    });
  }, 180_000);
});
