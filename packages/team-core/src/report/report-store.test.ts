import { afterEach, describe, expect, it } from 'vitest';
import { mergeRunWork } from '../integration/merge-run-work.js';
import { appendRunEvent } from '../storage/event-log.js';
import { createMemoryStore } from '../storage/memory-store/create-memory-store.js';
import { createRunFixture, type RunFixture } from '../test-support/run-fixture.js';
import { collectRunReport } from './collect-run-report.js';

let fixture: RunFixture | undefined;
afterEach(async () => {
  await fixture?.cleanup();
  fixture = undefined;
});

describe('a run kept in a store other than its home folder (NATS, or any other)', () => {
  it('is reported and merged from that store, never from the home folder', async () => {
    const store = createMemoryStore();
    fixture = await createRunFixture({
      store,
      members: [{ name: 'lead', isLead: true }, { name: 'w1' }],
    });
    const { home, runId, keys } = fixture;
    await appendRunEvent(store, keys.events, {
      runId,
      actor: 'lead',
      type: 'message.sent',
      ids: ['m1'],
      data: { delivered: ['w1'] },
    });

    const report = await collectRunReport({ store, home, runId });
    expect(report.messages.sent).toBe(1);
    // The merge reads the same store: the run is found there (it has no repository).
    await expect(mergeRunWork({ store, home, runId, by: 'lead' })).rejects.toThrow(
      /has no repository/,
    );
  });
});
