import { appendFile, readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { isTeamkitError } from '../errors/index.js';
import { appendRunEvent, readRunEvents } from './event-log.js';
import { createFileStore } from './file-store/create-file-store.js';
import { useTempFolder } from './test-support/workers.js';

let folder: string;
useTempFolder((created) => {
  folder = created;
});

const runId = '5f0c2a52-7f0e-4d1e-9a3b-2f1d3c4b5a69';
let store: ReturnType<typeof createFileStore>;
beforeEach(() => {
  store = createFileStore({ root: folder });
});

describe('run event log', () => {
  it('appends events and reads them back in order', async () => {
    const file = path.join(folder, 'run', 'events.jsonl');
    const key = 'run/events.jsonl';
    expect(await readRunEvents(store, key)).toEqual({ events: [], skipped: 0 });
    await appendRunEvent(store, key, { runId, actor: 'lead', type: 'run.started' }, () => 10);
    await appendRunEvent(store, key, {
      runId,
      actor: 'writer',
      type: 'task.claimed',
      ids: ['3'],
      at: 20,
    });
    expect(await readRunEvents(store, key)).toEqual({
      events: [
        { version: 1, at: 10, runId, actor: 'lead', type: 'run.started' },
        { version: 1, at: 20, runId, actor: 'writer', type: 'task.claimed', ids: ['3'] },
      ],
      skipped: 0,
    });
    expect((await readFile(file, 'utf8')).split('\n')).toHaveLength(3);
  });

  it('skips and counts torn lines and lines that fail the schema', async () => {
    const file = path.join(folder, 'events.jsonl');
    const key = 'events.jsonl';
    await appendRunEvent(store, key, { runId, actor: 'lead', type: 'one', at: 1 });
    await appendFile(
      file,
      `${JSON.stringify({ version: 1, at: 2, runId, actor: '', type: 'bad' })}\n`,
    );
    await appendRunEvent(store, key, { runId, actor: 'lead', type: 'two', at: 3 });
    // A crash mid-append: the next append starts a line of its own.
    await appendFile(file, '{"version":1,"at":4,"runId":"5f0c');
    await appendRunEvent(store, key, { runId, actor: 'lead', type: 'three', at: 5 });
    const { events, skipped } = await readRunEvents(store, key);
    expect(events.map((event) => event.type)).toEqual(['one', 'two', 'three']);
    expect(skipped).toBe(2);
  });

  it('refuses an invalid event and appends nothing', async () => {
    const error = await appendRunEvent(store, 'events.jsonl', {
      runId: 'nope',
      actor: 'lead',
      type: 'x',
    }).catch((caught) => caught);
    expect(isTeamkitError(error, 'INVALID_INPUT')).toBe(true);
    expect(error.message).toContain('runId');
    expect(await store.stat('events.jsonl')).toBeUndefined();
  });
});
