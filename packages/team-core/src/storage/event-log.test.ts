import { appendFile, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isTeamkitError } from '../errors/index.js';
import { appendRunEvent, readRunEvents } from './event-log.js';
import { createPathStore } from './path-store.js';
import { useTempFolder } from './test-support/workers.js';

let folder: string;
useTempFolder((created) => {
  folder = created;
});

const runId = '5f0c2a52-7f0e-4d1e-9a3b-2f1d3c4b5a69';
const store = createPathStore();

describe('run event log', () => {
  it('appends events and reads them back in order', async () => {
    const file = path.join(folder, 'run', 'events.jsonl');
    expect(await readRunEvents(store, file)).toEqual({ events: [], skipped: 0 });
    await appendRunEvent(store, file, { runId, actor: 'lead', type: 'run.started' }, () => 10);
    await appendRunEvent(store, file, {
      runId,
      actor: 'writer',
      type: 'task.claimed',
      ids: ['3'],
      at: 20,
    });
    expect(await readRunEvents(store, file)).toEqual({
      events: [
        { version: 1, at: 10, runId, actor: 'lead', type: 'run.started' },
        { version: 1, at: 20, runId, actor: 'writer', type: 'task.claimed', ids: ['3'] },
      ],
      skipped: 0,
    });
    expect((await readFile(file, 'utf8')).split('\n')).toHaveLength(3);
  });

  it('skips and counts a torn last line and lines that fail the schema', async () => {
    const file = path.join(folder, 'events.jsonl');
    await appendRunEvent(store, file, { runId, actor: 'lead', type: 'one', at: 1 });
    await appendFile(
      file,
      `${JSON.stringify({ version: 1, at: 2, runId, actor: '', type: 'bad' })}\n`,
    );
    await appendRunEvent(store, file, { runId, actor: 'lead', type: 'two', at: 3 });
    await appendFile(file, '{"version":1,"at":4,"runId":"5f0c');
    const { events, skipped } = await readRunEvents(store, file);
    expect(events.map((event) => event.type)).toEqual(['one', 'two']);
    expect(skipped).toBe(2);
  });

  it('refuses an invalid event and appends nothing', async () => {
    const file = path.join(folder, 'events.jsonl');
    const error = await appendRunEvent(store, file, {
      runId: 'nope',
      actor: 'lead',
      type: 'x',
    }).catch((caught) => caught);
    expect(isTeamkitError(error, 'INVALID_INPUT')).toBe(true);
    expect(error.message).toContain('runId');
    expect(await store.readText(file)).toBeUndefined();
  });
});
