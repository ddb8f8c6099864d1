import { setTimeout as delay } from 'node:timers/promises';
import type { EntryState, PendingTotals, TeamkitStore } from '@teamkit/team-core/storage';
import type { StoreProcess, WorkerReply } from '@teamkit/test-harness/store-conformance';
import { afterEach, describe, expect, it } from 'vitest';
import { type NatsFixture, startNatsFixture } from './test-support/nats-fixture.js';
import { natsServerMissing } from './test-support/nats-test-server.js';

const missing = natsServerMissing();
const INBOX = 'runtime/r1/inboxes/lead';
const STATES: EntryState[] = ['unread', 'reserved', 'processed'];

/** The totals an add's admission check sees now (the probe is refused, nothing is added). */
async function admissionTotals(store: TeamkitStore): Promise<PendingTotals> {
  let seen: PendingTotals | undefined;
  await store
    .addEntry(INBOX, `probe-${Date.now()}`, 'x', {
      admit(pending) {
        seen = pending;
        throw new Error('probe only');
      },
    })
    .catch(() => {});
  if (seen === undefined) throw new Error('the admission check did not run');
  return seen;
}

function added(reply: WorkerReply, ids: readonly string[]): string[] {
  if (!reply.ok) return [];
  const outcomes = reply.result as string[];
  return ids.filter((_, index) => outcomes[index] === 'added');
}

describe.skipIf(missing !== undefined)('NATS store entries under crashes', () => {
  let fixture: NatsFixture | undefined;
  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
  });

  it('keeps every acknowledged entry in exactly one state, with exact totals, when writers are killed and the server restarts', async () => {
    fixture = await startNatsFixture();
    const { store, server } = fixture;
    const acknowledged = new Set<string>();
    const movedTo = new Map<string, string[]>();
    for (let cycle = 0; cycle < 4; cycle += 1) {
      const adders = await fixture.workers(3, { staleMs: 2_000 });
      const movers = await fixture.workers(2, { staleMs: 2_000 });
      const batches = adders.map((_, w) =>
        Array.from({ length: 15 }, (_, i) => `c${cycle}-w${w}-m${i}`),
      );
      const adding = adders.map((worker, w) =>
        worker.call({
          op: 'addEntries',
          collection: INBOX,
          ids: batches[w] as string[],
          maxCount: 1e9,
        }),
      );
      const known = [...acknowledged, ...batches.flat()];
      const moving = [
        (movers[0] as StoreProcess).call({
          op: 'moveEntries',
          collection: INBOX,
          ids: known,
          from: ['unread'],
          to: 'reserved',
        }),
        (movers[1] as StoreProcess).call({
          op: 'moveEntries',
          collection: INBOX,
          ids: known,
          from: ['reserved'],
          to: 'processed',
        }),
      ];
      await delay(50 + Math.random() * 250);
      // Mid-operation: one adder and one mover die; every other cycle the server restarts too.
      await (adders[0] as StoreProcess).stop();
      await (movers[Math.floor(Math.random() * 2)] as StoreProcess).stop();
      if (cycle % 2 === 1) {
        await server.kill();
        await server.restart();
      }
      const addReplies = await Promise.all(adding);
      addReplies.forEach((reply, w) => {
        for (const id of added(reply, batches[w] as string[])) acknowledged.add(id);
      });
      (await Promise.all(moving)).forEach((reply, index) => {
        if (!reply.ok) return;
        const key = index === 0 ? 'reserved' : 'processed';
        movedTo.set(key, [
          ...(movedTo.get(key) ?? []),
          ...(reply.result as { moved: string[] }).moved,
        ]);
      });
      await Promise.all([...adders, ...movers].map((worker) => worker.stop()));
    }

    const listed = new Map<EntryState, string[]>();
    for (const state of STATES) {
      listed.set(
        state,
        (await store.listEntries(INBOX, state)).map((entry) => entry.id),
      );
    }
    const all = STATES.flatMap((state) => listed.get(state) ?? []);
    // Every entry in exactly one state, and each one's state agrees with the listings.
    expect(new Set(all).size).toBe(all.length);
    for (const state of STATES) {
      for (const id of listed.get(state) ?? [])
        expect(await store.entryState(INBOX, id)).toBe(state);
    }
    // Nothing acknowledged was lost.
    for (const id of acknowledged) expect(all).toContain(id);
    // Each move was reported by one mover only.
    for (const ids of movedTo.values()) expect(new Set(ids).size).toBe(ids.length);
    // The admission totals are the pending entries, exactly.
    const pending = [...(listed.get('unread') ?? []), ...(listed.get('reserved') ?? [])];
    const bytes = await Promise.all(
      pending.map(async (id) =>
        Buffer.byteLength(
          (await store.readEntry(INBOX, id, (await store.entryState(INBOX, id)) as EntryState)) ??
            '',
        ),
      ),
    );
    expect(await admissionTotals(store)).toEqual({
      count: pending.length,
      bytes: bytes.reduce((sum, size) => sum + size, 0),
    });

    // What the dead adders left staged is cleaned up; nothing that was added goes with it.
    await store.removeStaleTemporaries('', 0);
    for (const state of STATES) {
      expect((await store.listEntries(INBOX, state)).map((entry) => entry.id)).toEqual(
        listed.get(state),
      );
    }
    // And the collection keeps working: adds and moves after the crashes.
    await store.addEntry(INBOX, 'after', 'still works');
    expect(await store.moveEntries(INBOX, ['after'], ['unread'], 'processed')).toEqual({
      moved: ['after'],
      missing: [],
    });
  });
});
