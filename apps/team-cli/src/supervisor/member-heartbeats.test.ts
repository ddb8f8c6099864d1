import { setTimeout as delay } from 'node:timers/promises';
import { TeamkitError } from '@teamkit/team-core/errors';
import { createMemoryStore, type TeamkitStore } from '@teamkit/team-core/storage';
import { describe, expect, it } from 'vitest';
import { beatMember, createHeartbeatJudge, watchHeartbeat } from './member-heartbeats.js';

// The runs live in a store of the test's own; nothing is written to a folder.
const RUN = '6f1d2c3a-1b2c-4d5e-8f90-a1b2c3d4e5f6';
const SESSION = 'proc-4242-1';
const beat = (store: TeamkitStore) =>
  beatMember(RUN, 'w1', { machine: 'm-b', sessionId: SESSION, store });

/** The store with reads that fail as a networked store's do when its server is down. */
function unanswering(store: TeamkitStore): TeamkitStore {
  return {
    ...store,
    read: async () => {
      throw new TeamkitError('STORE_UNAVAILABLE', 'The test store does not answer.');
    },
  };
}

describe('member heartbeats judged once (team run resume)', () => {
  it('says alive once the heartbeat moves, and gone once it stays for the stale period', async () => {
    const store = createMemoryStore();
    await beat(store);
    let beating = true;
    const beats = (async () => {
      while (beating) {
        await delay(20);
        await beat(store);
      }
    })();
    expect(await watchHeartbeat(store, RUN, 'w1', SESSION, { staleMs: 60_000, pollMs: 10 })).toBe(
      true,
    );
    beating = false;
    await beats;
    expect(await watchHeartbeat(store, RUN, 'w1', SESSION, { staleMs: 200, pollMs: 10 })).toBe(
      false,
    );
  });

  it('fails with STORE_UNAVAILABLE, never "gone", while the store does not answer', async () => {
    const store = createMemoryStore();
    await beat(store);
    const silent = unanswering(store);
    await expect(
      watchHeartbeat(silent, RUN, 'w1', SESSION, { staleMs: 200, pollMs: 10 }),
    ).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
    // The supervisor's judge too: its pass fails and is tried again, nobody is marked errored.
    await expect(createHeartbeatJudge(silent).isAlive(RUN, 'w1', SESSION)).rejects.toMatchObject({
      code: 'STORE_UNAVAILABLE',
    });
  });
});
