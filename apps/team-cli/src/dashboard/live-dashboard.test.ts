import { PassThrough } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import { createTaskList } from '@teamkit/team-core';
import { TeamSpecSchema } from '@teamkit/team-core/schema';
import { createRunState } from '@teamkit/team-core/state';
import { createMemoryStore } from '@teamkit/team-core/storage';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempHome } from '../test-support/run-cli.js';
import { runLiveDashboard } from './live-dashboard.js';

let home: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ home, cleanup } = await createTempHome());
});
afterEach(async () => cleanup());

async function until(check: () => boolean, what: string, printed: () => string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}:\n${printed()}`);
    await delay(20);
  }
}

describe('runLiveDashboard', () => {
  it('redraws through the store’s watch, also for a run that has no folder on disk', async () => {
    // The run lives only in a memory store: no file event can announce its changes.
    const store = createMemoryStore();
    const spec = TeamSpecSchema.parse({
      id: 'pair',
      name: 'Pair',
      lead: 'lead',
      members: ['lead', 'w1'].map((name) => ({ name, role: name, prompt: `You are ${name}.` })),
    });
    const { runId } = await createRunState(
      home,
      { spec, teamSource: { scope: 'inline' }, hostId: 'test' },
      { store },
    );
    let printed = '';
    const stdout = Object.assign(new PassThrough(), { isTTY: false });
    stdout.on('data', (chunk: Buffer) => {
      printed += chunk.toString('utf8');
    });
    const controller = new AbortController();
    const done = runLiveDashboard({
      home,
      runId,
      store,
      stdout: stdout as unknown as NodeJS.WriteStream,
      signal: controller.signal,
      // The timed redraw never comes during the test: only the watch can redraw.
      intervalMs: 600_000,
    });
    try {
      await until(
        () => printed.includes('tasks 0/0 done'),
        'the first line',
        () => printed,
      );
      await createTaskList({ home, runId, store }).createTask('lead', { subject: 'Shown live' });
      await until(
        () => printed.includes('tasks 0/1 done'),
        'the redraw',
        () => printed,
      );
    } finally {
      controller.abort();
      await done;
      await store.close();
    }
    expect(printed.split('\n').filter((line) => line !== '')).toEqual([
      '[creating] tasks 0/0 done',
      '[creating] tasks 0/1 done (pending 1)',
    ]);
  });
});
