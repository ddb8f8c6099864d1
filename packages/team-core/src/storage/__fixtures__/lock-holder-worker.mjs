// Holds a lock in one of several ways, reporting what happened as JSON lines on stdout.
import { existsSync, writeSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { isTeamkitError } from '@teamkit/team-core/errors';
import { RunEventSchema } from '@teamkit/team-core/schema';
import { acquireLock, lockFolderOf, withLock } from '@teamkit/team-core/storage';
import { guardedWrites as store } from './guarded-writes.mjs';

const [mode, target, marker] = process.argv.slice(2);
const options = { staleMs: 2_000, timeoutMs: 30_000 };
const say = (value) => writeSync(1, `${JSON.stringify(value)}\n`);
const codeOf = (error) => (isTeamkitError(error) ? error.code : String(error));

async function outcome(operation) {
  try {
    await operation();
    return 'ok';
  } catch (error) {
    return codeOf(error);
  }
}

if (mode === 'hold') {
  // Holds the lock until killed.
  await acquireLock(target, options);
  say({ locked: true });
  setInterval(() => {}, 60_000);
} else if (mode === 'slow') {
  // Slow async work, well past the stale period, writing between steps.
  const { lock, release } = await acquireLock(target, options);
  say({ locked: true });
  const writes = [];
  for (let step = 0; step < 8; step += 1) {
    await delay(1_000);
    writes.push(await outcome(() => store.writeText(target, `step-${step}`, lock)));
  }
  writes.push(await outcome(() => store.writeText(target, 'done', lock)));
  const compromised = lock.compromised;
  await release();
  say({ writes, compromised });
} else if (mode === 'compromise') {
  // The lock folder is removed under the holder; the holder must refuse its writes and live on.
  const { lock, release } = await acquireLock(target, options);
  await store.writeText(target, 'before', lock);
  await rm(lockFolderOf(target), { recursive: true });
  const writeText = await outcome(() => store.writeText(target, 'after', lock));
  const assertHeld = await outcome(async () => lock.assertHeld());
  // Let the heartbeat notice too: its timer must not throw.
  await delay(2_500);
  const event = {
    version: 1,
    at: 1,
    runId: '5f0c2a52-7f0e-4d1e-9a3b-2f1d3c4b5a69',
    actor: 'lead',
    type: 'test',
  };
  const writeDocument = await outcome(() =>
    store.writeDocument(target, RunEventSchema, event, lock),
  );
  await release();
  const withLockResult = await outcome(() =>
    withLock(
      `${target}-2`,
      async () => {
        await rm(lockFolderOf(`${target}-2`), { recursive: true });
        await delay(1_500);
        return 'finished';
      },
      options,
    ),
  );
  say({
    writeText,
    assertHeld,
    writeDocument,
    withLock: withLockResult,
    compromised: lock.compromised,
  });
} else if (mode === 'stall') {
  // Blocks its event loop (no heartbeat) until `marker` exists, then writes and releases.
  const { lock, release } = await acquireLock(target, options);
  say({ locked: true });
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let i = 0; i < 600 && !existsSync(marker); i += 1) Atomics.wait(pause, 0, 0, 100);
  const write = await outcome(() => store.writeText(target, 'stalled-holder', lock));
  await release();
  say({ write, compromised: lock.compromised });
} else {
  throw new Error(`unknown mode ${mode}`);
}
