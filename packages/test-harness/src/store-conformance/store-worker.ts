/**
 * A child process of the store conformance suite. Started as
 * `node store-worker.js <module> <config-json>`, it opens a store with the module's
 * `openStore(config)` and answers one JSON request per stdin line with one JSON reply
 * per stdout line: `{ id, ok: true, result }` or `{ id, ok: false, code, message }`.
 */
import { writeSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { isTeamkitError, TeamkitError } from '@teamkit/team-core';
import { errorMessage } from '@teamkit/team-core/errors';
import type { TeamkitStore } from '@teamkit/team-core/storage';
import type { WorkerRequest } from './worker-protocol.js';

const [moduleArgument, configArgument] = process.argv.slice(2);
const say = (value: unknown) => writeSync(1, `${JSON.stringify(value)}\n`);

const opener = (await import(
  moduleArgument?.startsWith('file:') ? moduleArgument : pathToFileURL(String(moduleArgument)).href
)) as { openStore(config: unknown): TeamkitStore | Promise<TeamkitStore> };
const store = await opener.openStore(JSON.parse(String(configArgument)));

function codeOf(error: unknown): string {
  return isTeamkitError(error) ? error.code : `RAW:${String(error)}`;
}

/** Adds entries one by one under an admission cap; reports each outcome. */
async function addEntries(
  collection: string,
  ids: readonly string[],
  maxCount: number,
): Promise<string[]> {
  const outcomes: string[] = [];
  for (const id of ids) {
    try {
      await store.addEntry(collection, id, `entry ${id}`, {
        admit(pending) {
          if (pending.count >= maxCount) {
            throw new TeamkitError('RECIPIENT_BACKPRESSURE', `${collection} is full.`);
          }
        },
      });
      outcomes.push('added');
    } catch (error) {
      outcomes.push(codeOf(error));
    }
  }
  return outcomes;
}

/** Increments the number stored at `key` `times` times by read + update, retrying conflicts. */
async function increment(key: string, times: number): Promise<{ conflicts: number }> {
  let conflicts = 0;
  for (let done = 0; done < times; ) {
    const read = await store.read(key);
    if (read === undefined) throw new Error(`${key} is missing`);
    try {
      await store.update(key, String(Number(read.text) + 1), read.revision);
      done += 1;
    } catch (error) {
      if (!isTeamkitError(error, 'REVISION_CONFLICT')) throw error;
      conflicts += 1;
    }
  }
  return { conflicts };
}

/** Increments the number at `key` under the lock `lockKey`, with a plain put. */
async function incrementLocked(key: string, lockKey: string, times: number): Promise<void> {
  for (let done = 0; done < times; done += 1) {
    await store.withLock(lockKey, async () => {
      const read = await store.read(key);
      await store.put(key, String(Number(read?.text ?? '0') + 1));
    });
  }
}

async function handle(request: WorkerRequest): Promise<unknown> {
  switch (request.op) {
    case 'read':
      return store.read(request.key);
    case 'create':
      return store.create(request.key, request.text);
    case 'update':
      return store.update(request.key, request.text, request.revision);
    case 'claimMarkers': {
      const won: string[] = [];
      for (const key of request.keys) if (await store.claimMarker(key)) won.push(key);
      return won;
    }
    case 'addEntries':
      return addEntries(request.collection, request.ids, request.maxCount);
    case 'moveEntries':
      return store.moveEntries(request.collection, request.ids, request.from, request.to);
    case 'append':
      for (const line of request.lines) await store.append(request.key, line);
      return request.lines.length;
    case 'increment':
      return increment(request.key, request.times);
    case 'incrementLocked':
      await incrementLocked(request.key, request.lockKey, request.times);
      return request.times;
    case 'put':
      return store.put(request.key, request.text);
  }
}

say({ ready: true, pid: process.pid });
const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (line.trim() === '') continue;
  const request = JSON.parse(line) as WorkerRequest & { id: number };
  try {
    say({ id: request.id, ok: true, result: (await handle(request)) ?? null });
  } catch (error) {
    say({
      id: request.id,
      ok: false,
      code: codeOf(error),
      message: errorMessage(error),
    });
  }
}
await store.close();
