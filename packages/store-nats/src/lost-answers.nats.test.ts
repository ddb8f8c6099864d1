import { setTimeout as delay } from 'node:timers/promises';
import type { WorkerReply } from '@teamkit/test-harness/store-conformance';
import { afterEach, describe, expect, it } from 'vitest';
import { type FlakyProxy, startFlakyProxy } from './test-support/flaky-proxy.js';
import { type NatsFixture, startNatsFixture } from './test-support/nats-fixture.js';
import { natsServerMissing } from './test-support/nats-test-server.js';

const missing = natsServerMissing();
const KEY = 'runtime/r1/tasks/1.json';

async function poll(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(10);
  }
}

/**
 * The server applied a write, and its answer never came back: the connection broke first.
 * The client retries the same message, and the server recognises it (same `Nats-Msg-Id`),
 * so the write counts once and its writer learns it won.
 */
describe.skipIf(missing !== undefined)('NATS store when answers are lost', () => {
  let fixture: NatsFixture | undefined;
  let proxy: FlakyProxy | undefined;
  afterEach(async () => {
    await proxy?.close();
    await fixture?.close();
    proxy = undefined;
    fixture = undefined;
  });

  it('reports the one winner of a compare-and-set race as the winner after its answer was lost', async () => {
    fixture = await startNatsFixture();
    proxy = await startFlakyProxy(fixture.server.port);
    const { store } = fixture;
    const workers = await fixture.workers(8, { servers: proxy.url, timeoutMs: 6_000 });
    for (let round = 0; round < 4; round += 1) {
      const revision = await store.put(KEY, `round ${round}`);
      proxy.setMode('drop-replies');
      const racing: Promise<WorkerReply>[] = workers.map((worker, index) =>
        worker.call({ op: 'update', key: KEY, text: `worker ${index} round ${round}`, revision }),
      );
      await poll(
        async () => (await store.read(KEY))?.text !== `round ${round}`,
        'one update to be applied',
      );
      proxy.setMode('pass');
      proxy.cut();
      const replies = await Promise.all(racing);
      const winners = replies.flatMap((reply, index) => (reply.ok ? [index] : []));
      expect(winners, JSON.stringify(replies)).toHaveLength(1);
      expect((await store.read(KEY))?.text).toBe(`worker ${winners[0]} round ${round}`);
    }
  });

  it('counts exactly while answers are lost and links cut', async () => {
    fixture = await startNatsFixture();
    proxy = await startFlakyProxy(fixture.server.port);
    const { store } = fixture;
    await store.create(KEY, '0');
    const workers = await fixture.workers(4, { servers: proxy.url, timeoutMs: 20_000 });
    const link = proxy;
    let running = true;
    const chaos = (async () => {
      while (running) {
        await delay(150 + Math.random() * 150);
        link.setMode('drop-replies');
        await delay(20 + Math.random() * 40);
        link.setMode('pass');
        link.cut();
      }
    })();
    try {
      const replies = await Promise.all(
        workers.map((worker) => worker.call({ op: 'increment', key: KEY, times: 25 })),
      );
      for (const reply of replies) expect(reply, JSON.stringify(reply)).toMatchObject({ ok: true });
    } finally {
      running = false;
      await chaos;
    }
    expect(Number((await store.read(KEY))?.text)).toBe(workers.length * 25);
  });
});
