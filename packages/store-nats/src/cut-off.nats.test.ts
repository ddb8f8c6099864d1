import { isTeamkitError } from '@teamkit/team-core';
import type { TeamkitStore } from '@teamkit/team-core/storage';
import { afterEach, describe, expect, it } from 'vitest';
import { type FlakyProxy, startFlakyProxy } from './test-support/flaky-proxy.js';
import { type NatsFixture, startNatsFixture } from './test-support/nats-fixture.js';
import { natsServerMissing } from './test-support/nats-test-server.js';

const missing = natsServerMissing();
const KEY = 'runtime/r1/state.json';
const INBOX = 'runtime/r1/inboxes/lead';
const LOG = 'runtime/r1/events.jsonl';

async function codeOf(operation: () => Promise<unknown>): Promise<string> {
  try {
    await operation();
  } catch (error) {
    return isTeamkitError(error) ? error.code : `RAW:${String(error)}`;
  }
  return 'resolved';
}

/** Every kind of operation, each expected to fail the same way while the store is unreachable. */
function everyOperation(store: TeamkitStore, round: string): [string, () => Promise<unknown>][] {
  return [
    ['read', () => store.read(KEY)],
    ['put', () => store.put(KEY, `during ${round}`)],
    ['addEntry', () => store.addEntry(INBOX, `during-${round}`, 'x')],
    ['listEntries', () => store.listEntries(INBOX, 'unread')],
    ['append', () => store.append(LOG, `during ${round}`)],
    ['readLog', () => store.readLog(LOG)],
    ['withLock', () => store.withLock('runtime/r1/tasks/.lock', async () => 'held')],
    ['list', () => store.list('runtime/r1')],
  ];
}

async function worksAgain(store: TeamkitStore, round: string): Promise<void> {
  // The first calls after the cut may still fail while the client notices and reconnects.
  const deadline = Date.now() + 45_000;
  for (;;) {
    try {
      await store.read(KEY);
      break;
    } catch (error) {
      if (!isTeamkitError(error, 'STORE_UNAVAILABLE') || Date.now() > deadline) throw error;
    }
  }
  await store.put(KEY, `after ${round}`);
  expect((await store.read(KEY))?.text).toBe(`after ${round}`);
  await store.addEntry(INBOX, `after-${round}`, 'y');
  expect(await store.entryState(INBOX, `after-${round}`)).toBe('unread');
  await store.append(LOG, `after ${round}`);
  expect((await store.readLog(LOG)).lines).toContain(`after ${round}`);
  expect(await store.withLock('runtime/r1/tasks/.lock', async () => 'held')).toBe('held');
}

describe.skipIf(missing !== undefined)('NATS store cut off from its server', () => {
  let fixture: NatsFixture | undefined;
  let proxy: FlakyProxy | undefined;
  afterEach(async () => {
    await proxy?.close();
    await fixture?.close();
    proxy = undefined;
    fixture = undefined;
  });

  it('fails with STORE_UNAVAILABLE behind a silent network, and works again once it heals', async () => {
    fixture = await startNatsFixture();
    proxy = await startFlakyProxy(fixture.server.port);
    const store = await fixture.open({ servers: proxy.url, timeoutMs: 1_500 });
    await store.put(KEY, 'before');
    for (const round of ['cut', 'healed-alone']) {
      proxy.setMode('silent');
      for (const [name, operation] of everyOperation(store, round)) {
        expect(`${name}: ${await codeOf(operation)}`).toBe(`${name}: STORE_UNAVAILABLE`);
      }
      proxy.setMode('pass');
      // Healing with the broken link ended at once, then with the client finding out by
      // itself (its pings go unanswered) that the link is dead.
      if (round === 'cut') proxy.cut();
      await worksAgain(store, round);
      // Nothing sent into the silent network was applied.
      expect(await fixture.store.entryState(INBOX, `during-${round}`)).toBeUndefined();
    }
  });

  it('fails with STORE_UNAVAILABLE while the server is frozen or down, and works again after', async () => {
    fixture = await startNatsFixture();
    const { server } = fixture;
    const store = await fixture.open({ timeoutMs: 1_500 });
    await store.put(KEY, 'before');

    server.pause();
    try {
      expect(await codeOf(() => store.read(KEY))).toBe('STORE_UNAVAILABLE');
      expect(await codeOf(() => store.addEntry(INBOX, 'frozen', 'x'))).toBe('STORE_UNAVAILABLE');
    } finally {
      server.resume();
    }
    await worksAgain(store, 'frozen');

    await server.stop();
    for (const [name, operation] of everyOperation(store, 'down')) {
      expect(`${name}: ${await codeOf(operation)}`).toBe(`${name}: STORE_UNAVAILABLE`);
    }
    await server.restart();
    await worksAgain(store, 'down');
    // A write that failed as unavailable while the server was down never happened.
    expect(await store.entryState(INBOX, 'during-down')).toBeUndefined();
  });
});
