import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { type NatsFixture, startNatsFixture } from './test-support/nats-fixture.js';
import { natsServerMissing } from './test-support/nats-test-server.js';

const missing = natsServerMissing();
// How long the writer keeps rewriting when nothing stops it sooner: a listing that only
// ends once the writes pause ends after this, and the test sees that it did.
const WRITER_CAP_MS = 45_000;

/**
 * Rewrites `keys` over and over from another handle (as supervisors rewrite heartbeats
 * and locks every few hundred milliseconds) until `stop` or the cap.
 */
function keepRewriting(fixture: NatsFixture, keys: readonly string[]) {
  let stopped = false;
  let rounds = 0;
  const done = (async () => {
    const writer = await fixture.open();
    const cap = Date.now() + WRITER_CAP_MS;
    while (!stopped && Date.now() < cap) {
      for (const key of keys) await writer.put(key, `round ${rounds}`);
      rounds += 1;
    }
    return { cappedOut: !stopped };
  })();
  return {
    get rounds() {
      return rounds;
    },
    async stop() {
      stopped = true;
      return done;
    },
  };
}

describe.skipIf(missing !== undefined)('NATS store listings while keys keep changing', () => {
  let fixture: NatsFixture | undefined;
  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
  });

  it('lists a prefix whose keys are rewritten all the time, ends while they are, and misses none', async () => {
    fixture = await startNatsFixture();
    const runs = Array.from({ length: 12 }, (_, index) => `r${String(index).padStart(2, '0')}`);
    // Each run holds nothing but a key rewritten all the time: a listing that missed one
    // rewrite would miss the run.
    const beats = runs.map((run) => `runtime/${run}/heartbeats/w1.json`);
    for (const key of beats) await fixture.store.put(key, 'first');
    const writer = keepRewriting(fixture, beats);
    // Let the rewrites get going before the listings start.
    while (writer.rounds < 3) await delay(20);
    const listings: string[][] = [];
    for (let index = 0; index < 5; index += 1) {
      listings.push(await fixture.store.list('runtime'));
      listings.push(await fixture.store.list(`runtime/${runs[index]}`));
    }
    const { cappedOut } = await writer.stop();
    // Every listing ended while the writer still wrote: none waited for the writes to pause.
    expect(cappedOut).toBe(false);
    for (let index = 0; index < 5; index += 1) {
      expect(listings[index * 2]).toEqual(runs);
      expect(listings[index * 2 + 1]).toEqual(['heartbeats']);
    }
  }, 120_000);
});
