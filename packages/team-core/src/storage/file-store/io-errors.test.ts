import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isTeamkitError } from '../../errors/index.js';
import type { TeamkitStore } from '../teamkit-store.js';
import { startOpWorker } from '../test-support/op-worker.js';
import { useTempFolder } from '../test-support/workers.js';
import { createFileStore } from './create-file-store.js';

let folder: string;
useTempFolder((created) => {
  folder = created;
});

const VALUE = 'runtime/r/state.json';
const LOG = 'runtime/r/events.jsonl';
const INBOX = 'runtime/r/inboxes/lead';

/** Mounts a small tmpfs when this process may (root); `undefined` otherwise. */
function mountSmallFilesystem(at: string): (() => void) | undefined {
  if (process.getuid?.() !== 0) return undefined;
  fs.mkdirSync(at);
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k,mode=0700', 'tmpfs', at], {
      stdio: 'ignore',
    });
  } catch {
    return undefined;
  }
  return () => execFileSync('umount', ['-l', at], { stdio: 'ignore' });
}

let unmount: (() => void) | undefined;
afterEach(() => {
  unmount?.();
  unmount = undefined;
  vi.restoreAllMocks();
});

async function errnoOf(operation: () => Promise<unknown>): Promise<string> {
  try {
    await operation();
    return 'ok';
  } catch (error) {
    expect(isTeamkitError(error), String(error)).toBe(true);
    const { code, details } = error as { code: string; details?: { errno?: string } };
    return `${code}:${details?.errno ?? ''}`;
  }
}

/** A store holding a value, a log line and a message, to fail writes against. */
async function seeded(root: string): Promise<TeamkitStore> {
  const store = createFileStore({ root });
  await store.create(VALUE, '{"v":1}');
  await store.append(LOG, '{"e":1}');
  await store.addEntry(INBOX, 'm1', '{"m":1}');
  return store;
}

/** What a failed write must leave: the old value, whole log lines, no message, no temp file. */
async function expectUnchanged(store: TeamkitStore, root: string): Promise<void> {
  expect((await store.read(VALUE))?.text).toBe('{"v":1}');
  expect(await store.readLog(LOG)).toMatchObject({ lines: ['{"e":1}'], skipped: 0 });
  expect((await store.listEntries(INBOX, 'unread')).map((entry) => entry.id)).toEqual(['m1']);
  const names = fs.readdirSync(path.join(root, 'runtime', 'r'), { recursive: true }) as string[];
  expect(names.filter((name) => path.basename(name).startsWith('.tmp-'))).toEqual([]);
}

const writes = (store: TeamkitStore, revision: string, big: string) =>
  [
    () => store.update(VALUE, big, revision),
    () => store.put(VALUE, big),
    () => store.create('runtime/r/tasks/1.json', big),
    () => store.append(LOG, big),
    () => store.addEntry(INBOX, 'm2', big),
  ] as const;

describe('a full or read-only filesystem gives IO_ERROR and keeps the old state', () => {
  const mounted = process.getuid?.() === 0;

  it.runIf(mounted)('on a full tmpfs (ENOSPC)', async () => {
    const mountPoint = path.join(folder, 'small');
    unmount = mountSmallFilesystem(mountPoint);
    expect(unmount, 'mount a 256 KiB tmpfs as root').toBeDefined();
    const root = path.join(mountPoint, 'home');
    const store = await seeded(root);
    const revision = (await store.read(VALUE))?.revision as string;
    const filler = path.join(mountPoint, 'filler');
    try {
      fs.writeFileSync(filler, Buffer.alloc(1024 * 1024));
    } catch {
      // Full, as intended.
    }
    const big = `"${'x'.repeat(16 * 1024)}"`;
    for (const write of writes(store, revision, big)) {
      expect(await errnoOf(write)).toBe('IO_ERROR:ENOSPC');
    }
    await expectUnchanged(store, root);
    fs.rmSync(filler);
    await store.append(LOG, '{"e":2}');
    expect(await store.readLog(LOG)).toMatchObject({ lines: ['{"e":1}', '{"e":2}'], skipped: 0 });
  });

  it.runIf(mounted)('on a read-only tmpfs (EROFS)', async () => {
    const mountPoint = path.join(folder, 'small');
    unmount = mountSmallFilesystem(mountPoint);
    expect(unmount, 'mount a tmpfs as root').toBeDefined();
    const root = path.join(mountPoint, 'home');
    const store = await seeded(root);
    const revision = (await store.read(VALUE))?.revision as string;
    execFileSync('mount', ['-o', 'remount,ro', mountPoint]);
    for (const write of writes(store, revision, '{"v":2}')) {
      expect(await errnoOf(write)).toBe('IO_ERROR:EROFS');
    }
    expect(await errnoOf(() => store.claimMarker('runtime/r/inboxes/.sent/1'))).toBe(
      'IO_ERROR:EROFS',
    );
    expect(await errnoOf(() => store.remove(VALUE))).toBe('IO_ERROR:EROFS');
    await expectUnchanged(store, root);
  });

  it('with injected faults (no mount needed): ENOSPC on write, EROFS on create', async () => {
    const root = path.join(folder, 'home');
    const store = await seeded(root);
    const revision = (await store.read(VALUE))?.revision as string;
    const fail = (code: string) => () => {
      throw Object.assign(new Error(`${code}: injected`), { code });
    };
    const spy = vi.spyOn(fs, 'writeSync').mockImplementation(fail('ENOSPC'));
    for (const write of writes(store, revision, '{"v":2}')) {
      expect(await errnoOf(write)).toBe('IO_ERROR:ENOSPC');
    }
    spy.mockRestore();
    vi.spyOn(fs, 'linkSync').mockImplementation(fail('EROFS'));
    vi.spyOn(fs, 'openSync').mockImplementation(fail('EROFS'));
    expect(await errnoOf(() => store.put(VALUE, '{"v":3}'))).toBe('IO_ERROR:EROFS');
    expect(await errnoOf(() => store.append(LOG, '{"e":3}'))).toBe('IO_ERROR:EROFS');
    vi.restoreAllMocks();
    await expectUnchanged(store, root);
  });

  it('a folder the user may not write gives IO_ERROR EACCES', async () => {
    const root = path.join(folder, 'home');
    await seeded(root);
    const unprivileged = process.getuid?.() === 0;
    if (!unprivileged) fs.chmodSync(path.join(root, 'runtime', 'r'), 0o500);
    else fs.chmodSync(folder, 0o755);
    // As root, the worker drops to nobody, who may not even enter the 0700 home.
    const worker = await startOpWorker(root, unprivileged);
    try {
      for (const [op, args] of [
        ['put', [VALUE, '{"v":2}']],
        ['append', [LOG, '{"e":2}']],
        ['addEntry', [INBOX, 'm2', '{}']],
      ] as const) {
        const reply = await worker.call(op, [...args], 10_000);
        expect(reply).toMatchObject({ ok: false, code: 'IO_ERROR' });
        expect(reply.ok === false && reply.message).toContain('EACCES');
      }
    } finally {
      await worker.stop();
      fs.chmodSync(path.join(root, 'runtime', 'r'), 0o700);
    }
  });
});
