import type { StoreProcess, WorkerReply } from '@teamkit/test-harness/store-conformance';
import { afterEach, describe, expect, it } from 'vitest';
import { type NatsFixture, startNatsFixture, waitUntil } from './test-support/nats-fixture.js';
import { natsServerMissing } from './test-support/nats-test-server.js';

const missing = natsServerMissing();
const COUNTER = 'runtime/r1/tasks/counter.json';
const INBOX = 'runtime/r1/inboxes/lead';
const LOG = 'runtime/r1/events.jsonl';

describe.skipIf(missing !== undefined)('NATS store across server restarts', () => {
  let fixture: NatsFixture | undefined;
  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
  });

  it('loses nothing that was acknowledged when the server is killed and restarted mid-run', async () => {
    fixture = await startNatsFixture();
    const { store, server } = fixture;
    await store.create(COUNTER, '0');
    const workers = await fixture.workers(3);
    const acked = {
      values: new Map<string, string>(),
      entries: [] as string[],
      lines: [] as string[],
    };
    const total = 120;
    const writers = [
      (async () => {
        for (let i = 0; i < total; i += 1) {
          const key = `runtime/r1/values/${i}.json`;
          await store.put(key, `value ${i}`);
          acked.values.set(key, `value ${i}`);
        }
      })(),
      (async () => {
        for (let i = 0; i < total; i += 1) {
          await store.addEntry(INBOX, `m${i}`, `message ${i}`);
          acked.entries.push(`m${i}`);
        }
      })(),
      (async () => {
        for (let i = 0; i < total; i += 1) {
          await store.append(LOG, `line ${i}`);
          acked.lines.push(`line ${i}`);
        }
      })(),
    ];
    const increments = workers.map((worker) =>
      worker.call({ op: 'increment', key: COUNTER, times: 30 }),
    );
    // Twice: a crash (SIGKILL) at a third of the way, then a clean stop at two thirds.
    await waitUntil(() => acked.entries.length >= total / 3, 'a third of the entries');
    await server.kill();
    await server.restart();
    await waitUntil(() => acked.entries.length >= (2 * total) / 3, 'two thirds of the entries');
    await server.stop();
    await server.restart();
    await Promise.all(writers);
    const replies = await Promise.all(increments);
    for (const reply of replies) expect(reply, JSON.stringify(reply)).toMatchObject({ ok: true });

    for (const [key, text] of acked.values) expect((await store.read(key))?.text).toBe(text);
    const unread = await store.listEntries(INBOX, 'unread');
    expect(unread.map((entry) => entry.id).sort()).toEqual([...acked.entries].sort());
    expect((await store.readLog(LOG)).lines).toEqual(acked.lines);
    // Each increment is one compare-and-set; a retried one is never applied twice.
    expect(Number((await store.read(COUNTER))?.text)).toBe(workers.length * 30);
  });

  it('lets exactly one of 8 processes win each revision, also when the server restarts mid-round', async () => {
    fixture = await startNatsFixture();
    const { store, server } = fixture;
    const workers = await fixture.workers(8);
    const key = 'runtime/r1/tasks/1.json';
    for (let round = 0; round < 12; round += 1) {
      const revision = await store.put(key, `round ${round}`);
      const racing: Promise<WorkerReply>[] = workers.map((worker: StoreProcess, index) =>
        worker.call({ op: 'update', key, text: `worker ${index} round ${round}`, revision }),
      );
      if (round % 4 === 1) {
        // Requests are on their way or applied, answers not yet back.
        await server.kill();
        await server.restart();
      } else if (round % 4 === 3) {
        await server.stop();
        await server.restart();
      }
      const replies = await Promise.all(racing);
      const winners = replies.flatMap((reply, index) => (reply.ok ? [index] : []));
      expect(winners, JSON.stringify(replies)).toHaveLength(1);
      for (const reply of replies) {
        if (!reply.ok) expect(reply.code).toBe('REVISION_CONFLICT');
      }
      expect((await store.read(key))?.text).toBe(`worker ${winners[0]} round ${round}`);
    }
  });

  it('keeps watches reporting after the server was killed and restarted', async () => {
    fixture = await startNatsFixture();
    const { store, server } = fixture;
    const keys = new Set<string>();
    const ids = new Set<string>();
    const stopWatch = await store.watch('runtime/r1', (changes) => {
      for (const change of changes) keys.add(change.key);
    });
    const stopEntries = await store.watchEntries(INBOX, (changed) => {
      if (changed !== 'all') for (const id of changed) ids.add(id);
    });
    try {
      await store.put('runtime/r1/state.json', 'before');
      await waitUntil(() => keys.has('runtime/r1/state.json'), 'the first put to be reported');
      await server.kill();
      await server.restart();
      const writer = await fixture.open();
      await writer.put('runtime/r1/after.json', 'after');
      await writer.addEntry(INBOX, 'after', 'x');
      await writer.append(LOG, 'after');
      await waitUntil(
        () =>
          keys.has('runtime/r1/after.json') && keys.has(LOG) && keys.has(INBOX) && ids.has('after'),
        'changes made after the restart to be reported',
        60_000,
      );
    } finally {
      await stopWatch();
      await stopEntries();
    }
  });
});
