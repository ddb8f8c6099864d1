import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { mergeRunWork } from '../integration/merge-run-work.js';
import { TeamSpecSchema } from '../schema/index.js';
import { createRunState, transitionRun } from '../state/index.js';
import { appendRunEvent } from '../storage/event-log.js';
import { createMemoryStore } from '../storage/memory-store/create-memory-store.js';
import { runKeys } from '../storage/run-keys.js';
import { useStoreForHome } from '../storage/selected-store.js';
import { collectRunReport } from './collect-run-report.js';

let home: string | undefined;
afterEach(async () => {
  if (home === undefined) return;
  useStoreForHome(home, undefined);
  await rm(home, { recursive: true, force: true });
  home = undefined;
});

describe('a run kept in the store selected for its home (NATS, or any other)', () => {
  it('is reported and merged from that store, never from the home folder', async () => {
    home = await mkdtemp(path.join(os.tmpdir(), 'teamkit-report-store-'));
    const store = createMemoryStore();
    useStoreForHome(home, store);
    const spec = TeamSpecSchema.parse({
      id: 'pair',
      name: 'Pair',
      lead: 'lead',
      members: ['lead', 'w1'].map((name) => ({ name, role: name, prompt: `You are ${name}.` })),
    });
    const { runId } = await createRunState(home, {
      spec,
      teamSource: { scope: 'inline' },
      hostId: 'process',
    });
    await transitionRun(home, runId, 'active');
    await appendRunEvent(store, runKeys(runId).events, {
      runId,
      actor: 'lead',
      type: 'message.sent',
      ids: ['m1'],
      data: { delivered: ['w1'] },
    });

    const report = await collectRunReport({ home, runId });
    expect(report.messages.sent).toBe(1);
    // The merge reads the same store: the run is found there (it has no repository).
    await expect(mergeRunWork({ home, runId, by: 'lead' })).rejects.toThrow(/has no repository/);
  });
});
