import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { TeamkitError } from '@teamkit/team-core/errors';
import { createMemoryStore, type TeamkitStore, useStoreForHome } from '@teamkit/team-core/storage';
import { afterEach, describe, expect, it } from 'vitest';
import { beatMember, createHeartbeatJudge, watchHeartbeat } from './member-heartbeats.js';

// The runs of this home live in a store of the test's own; nothing is written to the folder.
const HOME = path.join(os.tmpdir(), 'teamkit-member-heartbeats-test');
const RUN = '6f1d2c3a-1b2c-4d5e-8f90-a1b2c3d4e5f6';
const SESSION = 'proc-4242-1';
const beat = () => beatMember(RUN, 'w1', { machine: 'm-b', sessionId: SESSION, home: HOME });

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
  afterEach(() => useStoreForHome(HOME, undefined));

  it('says alive once the heartbeat moves, and gone once it stays for the stale period', async () => {
    useStoreForHome(HOME, createMemoryStore());
    await beat();
    let beating = true;
    const beats = (async () => {
      while (beating) {
        await delay(20);
        await beat();
      }
    })();
    expect(await watchHeartbeat(HOME, RUN, 'w1', SESSION, { staleMs: 60_000, pollMs: 10 })).toBe(
      true,
    );
    beating = false;
    await beats;
    expect(await watchHeartbeat(HOME, RUN, 'w1', SESSION, { staleMs: 200, pollMs: 10 })).toBe(
      false,
    );
  });

  it('fails with STORE_UNAVAILABLE, never "gone", while the store does not answer', async () => {
    const store = createMemoryStore();
    useStoreForHome(HOME, store);
    await beat();
    useStoreForHome(HOME, unanswering(store));
    await expect(
      watchHeartbeat(HOME, RUN, 'w1', SESSION, { staleMs: 200, pollMs: 10 }),
    ).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
    // The supervisor's judge too: its pass fails and is tried again, nobody is marked errored.
    await expect(createHeartbeatJudge(HOME).isAlive(RUN, 'w1', SESSION)).rejects.toMatchObject({
      code: 'STORE_UNAVAILABLE',
    });
  });
});
