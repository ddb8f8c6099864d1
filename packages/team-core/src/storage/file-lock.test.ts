import { mkdir, readFile, stat, utimes } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isTeamkitError } from '../errors/index.js';
import { writeFileAtomically } from './atomic-write.js';
import { acquireLock, lockFolderOf, withLock } from './file-lock.js';
import { killWorker, startWorker, useTempFolder, type Worker } from './test-support/workers.js';

let folder: string;
useTempFolder((created) => {
  folder = created;
});

const exists = (entry: string) =>
  stat(entry).then(
    () => true,
    () => false,
  );

async function lastJson(worker: Worker): Promise<Record<string, unknown>> {
  const exit = await worker.exited;
  expect(worker.stderr()).toBe('');
  expect(exit).toEqual({ code: 0, signal: null });
  const lines = worker.stdout().trim().split('\n');
  return JSON.parse(lines[lines.length - 1] ?? '{}') as Record<string, unknown>;
}

describe('file locks', () => {
  it('names the lock in LOCK_TIMEOUT', async () => {
    const target = path.join(folder, 'state.json');
    const { release } = await acquireLock(target);
    try {
      const error = await acquireLock(target, { timeoutMs: 100 }).catch((caught) => caught);
      expect(isTeamkitError(error, 'LOCK_TIMEOUT')).toBe(true);
      expect(error.message).toContain(lockFolderOf(target));
      expect(error.details).toMatchObject({ lock: lockFolderOf(target), timeoutMs: 100 });
    } finally {
      await release();
    }
    expect(await exists(lockFolderOf(target))).toBe(false);
  });

  it('gives up with LOCK_TIMEOUT, without spinning, when a takeover folder is left over', async () => {
    const target = path.join(folder, 'state.json');
    // A stale lock (its holder stopped its heartbeat a minute ago) whose takeover folder
    // was left by a process that died mid-takeover moments ago.
    await mkdir(lockFolderOf(target));
    const minuteAgo = new Date(Date.now() - 60_000);
    await utimes(lockFolderOf(target), minuteAgo, minuteAgo);
    await mkdir(`${lockFolderOf(target)}.takeover`);

    const before = process.cpuUsage();
    const error = await acquireLock(target, { staleMs: 2_000, timeoutMs: 500 }).catch(
      (caught: unknown) => caught,
    );
    const used = process.cpuUsage(before);
    expect(isTeamkitError(error, 'LOCK_TIMEOUT')).toBe(true);
    // Waiting half a second costs a few milliseconds of CPU; a busy wait costs all of it.
    expect((used.user + used.system) / 1_000).toBeLessThan(250);
    expect(await exists(`${lockFolderOf(target)}.takeover`)).toBe(true);
  });

  it('serialises 8 processes incrementing one counter 1,000 times', async () => {
    const target = path.join(folder, 'counter.txt');
    const workers = Array.from({ length: 8 }, () =>
      startWorker('lock-counter-worker.mjs', [target, '125']),
    );
    const exits = await Promise.all(workers.map((worker) => worker.exited));
    for (const [index, exit] of exits.entries()) {
      expect(workers[index]?.stderr()).toBe('');
      expect(exit).toEqual({ code: 0, signal: null });
    }
    expect(await readFile(target, 'utf8')).toBe('1000');
    expect(await exists(lockFolderOf(target))).toBe(false);
  }, 150_000);

  it('takes over the lock of a SIGKILLed holder once it is stale', async () => {
    const target = path.join(folder, 'state.json');
    const holder = startWorker('lock-holder-worker.mjs', ['hold', target]);
    await holder.waitForLine((line) => line.includes('"locked":true'));
    expect(await killWorker(holder)).toEqual({ code: null, signal: 'SIGKILL' });
    expect(await exists(lockFolderOf(target))).toBe(true);

    await withLock(
      target,
      async (lock) => {
        lock.assertHeld();
        await writeFileAtomically(target, 'after takeover');
      },
      { staleMs: 2_000, timeoutMs: 30_000 },
    );
    expect(await readFile(target, 'utf8')).toBe('after takeover');
    expect(await exists(lockFolderOf(target))).toBe(false);
  });

  it('lets a live holder doing slow async work keep its lock past the stale period', async () => {
    const target = path.join(folder, 'state.json');
    const holder = startWorker('lock-holder-worker.mjs', ['slow', target]);
    await holder.waitForLine((line) => line.includes('"locked":true'));

    const attempt = await withLock(target, async () => readFile(target, 'utf8'), {
      staleMs: 2_000,
      timeoutMs: 4_000,
    }).catch((error: unknown) => error);
    if (typeof attempt === 'string') {
      // It waited: it may only have got the lock after the holder finished.
      expect(attempt).toBe('done');
    } else {
      expect(isTeamkitError(attempt, 'LOCK_TIMEOUT')).toBe(true);
    }

    const result = await lastJson(holder);
    expect(result).toEqual({ writes: Array(9).fill('ok'), compromised: false });
    expect(await readFile(target, 'utf8')).toBe('done');
  });

  it('refuses guarded writes after the lock folder is removed, without crashing', async () => {
    const target = path.join(folder, 'state.json');
    const holder = startWorker('lock-holder-worker.mjs', ['compromise', target]);
    const result = await lastJson(holder);
    expect(result).toEqual({
      writeText: 'LOCK_COMPROMISED',
      assertHeld: 'LOCK_COMPROMISED',
      writeDocument: 'LOCK_COMPROMISED',
      withLock: 'LOCK_COMPROMISED',
      compromised: true,
    });
    expect(await readFile(target, 'utf8')).toBe('before');
  });

  it('keeps a stalled holder from writing or releasing once its lock was taken over', async () => {
    const target = path.join(folder, 'state.json');
    const marker = path.join(folder, 'taken-over');
    const holder = startWorker('lock-holder-worker.mjs', ['stall', target, marker]);
    await holder.waitForLine((line) => line.includes('"locked":true'));

    const { lock, release } = await acquireLock(target, { staleMs: 2_000, timeoutMs: 30_000 });
    try {
      await writeFileAtomically(marker, 'yes');
      const result = await lastJson(holder);
      expect(result).toEqual({ write: 'LOCK_COMPROMISED', compromised: true });
      expect(await exists(lockFolderOf(target))).toBe(true);
      expect(lock.compromised).toBe(false);
      lock.assertHeld();
      await writeFileAtomically(target, 'new holder');
    } finally {
      await release();
    }
    expect(await readFile(target, 'utf8')).toBe('new holder');
    expect(await exists(lockFolderOf(target))).toBe(false);
  });
});
