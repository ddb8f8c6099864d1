import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TaskSchema } from '../../schema/task.js';
import { readDocument } from '../store-documents.js';
import { type OpReply, type OpWorker, startOpWorker } from '../test-support/op-worker.js';
import { useTempFolder } from '../test-support/workers.js';
import { createFileStore } from './create-file-store.js';

// Every store operation answers within this, whatever was planted: a FIFO or device
// opened the usual way would block the process forever instead.
const PER_OPERATION_MS = 1_000;
const IS_ROOT = process.getuid?.() === 0;

let folder: string;
useTempFolder((created) => {
  folder = created;
});

const workers: OpWorker[] = [];
const servers: net.Server[] = [];
afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.stop()));
  await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))));
});

const home = () => path.join(folder, 'home');
const at = (key: string) => path.join(home(), ...key.split('/'));

const VALUE = 'runtime/r/state.json';
const LOG = 'runtime/r/events.jsonl';
const INBOX = 'runtime/r/inboxes/lead';

/** A home with a value, a log and an inbox, written by the store itself. */
async function seededHome(): Promise<void> {
  const store = createFileStore({ root: home() });
  await store.create(VALUE, '{"v":1}');
  await store.append(LOG, '{"e":1}');
  await store.addEntry(INBOX, 'm1', '{"m":1}');
}

type Plant = (file: string) => Promise<void> | void;

const plants: Record<string, Plant> = {
  FIFO: (file) => {
    execFileSync('mkfifo', [file]);
  },
  socket: (file) =>
    new Promise<void>((resolve, reject) => {
      const server = net.createServer();
      servers.push(server);
      server.once('error', reject);
      server.listen(file, () => resolve());
    }),
  folder: (file) => fs.mkdirSync(file),
  'symlink to a device': (file) => fs.symlinkSync('/dev/zero', file),
  unreadable: (file) => {
    fs.writeFileSync(file, '{"v":1}');
    fs.chmodSync(file, 0);
  },
  empty: (file) => fs.writeFileSync(file, ''),
  huge: (file) => {
    fs.writeFileSync(file, '');
    fs.truncateSync(file, 64 * 1024 * 1024);
  },
  torn: (file) => fs.writeFileSync(file, '{"v":1, "name": "to'),
};

/** Replaces what is at `key` with a planted thing of `kind`. */
async function plantAt(key: string, kind: string): Promise<void> {
  const file = at(key);
  fs.rmSync(file, { force: true, recursive: true });
  await (plants[kind] as Plant)(file);
  if (kind === 'unreadable' && IS_ROOT) {
    // The worker drops to nobody, which must reach the file to be refused by its mode.
    fs.chmodSync(folder, 0o755);
    for (const entry of [home(), ...walk(home())]) fs.lchownSync(entry, 65534, 65534);
  }
}

function walk(root: string): string[] {
  return fs.readdirSync(root, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(root, entry.name);
    return entry.isDirectory() ? [full, ...walk(full)] : [full];
  });
}

async function callAll(kind: string, calls: [string, unknown[]][]): Promise<OpReply[]> {
  const worker = await startOpWorker(home(), kind === 'unreadable');
  workers.push(worker);
  const replies: OpReply[] = [];
  for (const [op, args] of calls) replies.push(await worker.call(op, args, PER_OPERATION_MS));
  return replies;
}

const TYPED = /^[A-Z][A-Z_]+$/;

function expectTypedWithinTime(replies: OpReply[], calls: [string, unknown[]][]) {
  for (const [index, reply] of replies.entries()) {
    const call = `${calls[index]?.[0]}(${JSON.stringify(calls[index]?.[1])})`;
    if (reply.ok) continue;
    expect(reply.code, `${call}: ${reply.message}`).not.toBe('TIMED_OUT');
    expect(reply.code, `${call}: ${reply.message}`).toMatch(TYPED);
  }
}

const codeOf = (reply: OpReply | undefined) => (reply?.ok === false ? reply.code : 'ok');

describe('hostile files in place of a value', () => {
  const calls: [string, unknown[]][] = [
    ['read', [VALUE]],
    ['stat', [VALUE]],
    ['update', [VALUE, '{"v":2}', 'i1']],
    ['put', [VALUE, '{"v":3}']],
    ['create', [VALUE, '{"v":4}']],
    ['remove', [VALUE]],
  ];

  it.each([
    ['FIFO', 'CORRUPT_DOCUMENT'],
    ['socket', 'CORRUPT_DOCUMENT'],
    ['folder', 'CORRUPT_DOCUMENT'],
    ['symlink to a device', 'PATH_TRAVERSAL'],
    ['unreadable', 'IO_ERROR'],
    ['huge', 'CORRUPT_DOCUMENT'],
  ])('a %s gives a typed error at once, and is left in place', async (kind, readCode) => {
    await seededHome();
    await plantAt(VALUE, kind);
    const before = fs.lstatSync(at(VALUE));
    const replies = await callAll(kind, calls);
    expectTypedWithinTime(replies, calls);
    expect(codeOf(replies[0]), replies[0]?.ok === false ? replies[0].message : '').toBe(readCode);
    if (kind !== 'huge') {
      // Nothing replaced, removed or wrote through what was planted.
      for (const reply of replies.slice(2)) expect(reply.ok).toBe(false);
      const after = fs.lstatSync(at(VALUE));
      expect([after.ino, after.mode, after.size]).toEqual([before.ino, before.mode, before.size]);
    }
    if (kind === 'symlink to a device') expect(fs.readlinkSync(at(VALUE))).toBe('/dev/zero');
  });

  it.each(['empty', 'torn'])(
    'an %s file reads as its text; the document helpers refuse it',
    async (kind) => {
      await seededHome();
      await plantAt(VALUE, kind);
      const replies = await callAll(kind, [['read', [VALUE]]]);
      expect(replies[0]).toMatchObject({ ok: true });
      const store = createFileStore({ root: home() });
      const error = await readDocument(store, VALUE, TaskSchema).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: 'CORRUPT_DOCUMENT' });
      expect(fs.readFileSync(at(VALUE), 'utf8')).toBe(
        kind === 'empty' ? '' : '{"v":1, "name": "to',
      );
    },
  );
});

describe('hostile files in place of a log', () => {
  const calls: [string, unknown[]][] = [
    ['readLog', [LOG]],
    ['append', [LOG, '{"e":2}']],
    ['stat', [LOG]],
  ];

  it.each(['FIFO', 'socket', 'folder', 'symlink to a device', 'unreadable', 'huge'])(
    'a %s gives typed errors or a reported skip, never a hang',
    async (kind) => {
      await seededHome();
      await plantAt(LOG, kind);
      const replies = await callAll(kind, calls);
      expectTypedWithinTime(replies, calls);
      if (kind === 'huge') {
        expect(replies[0]).toMatchObject({ ok: true, result: { lines: [], skipped: 1 } });
      } else {
        expect(replies.slice(0, 2).map(codeOf)).not.toContain('ok');
      }
    },
  );

  it('skips a line torn by a crash and never continues it', async () => {
    await seededHome();
    fs.appendFileSync(at(LOG), '{"e":2}\n{"e":\0\0\0\n{"e":3}\n{"e":"torn');
    const store = createFileStore({ root: home() });
    await store.append(LOG, '{"e":4}');
    const read = await store.readLog(LOG);
    expect(read.lines).toEqual(['{"e":1}', '{"e":2}', '{"e":3}', '{"e":"torn', '{"e":4}']);
    expect(read.skipped).toBe(1);
  });
});

describe('hostile files among entries', () => {
  const entry = `${INBOX}/m2.json`;
  const calls: [string, unknown[]][] = [
    ['listEntries', [INBOX, 'unread']],
    ['readEntry', [INBOX, 'm2', 'unread']],
    ['entryState', [INBOX, 'm2']],
    ['addEntry', [INBOX, 'm2', 'x']],
    ['addEntry', [INBOX, 'm3', 'x']],
  ];

  it.each(['FIFO', 'socket', 'folder', 'symlink to a device', 'unreadable', 'huge'])(
    'a %s message is listed, refused when read, and blocks nothing else',
    async (kind) => {
      await seededHome();
      await plantAt(entry, kind);
      const replies = await callAll(kind, calls);
      expectTypedWithinTime(replies, calls);
      expect(replies[0]).toMatchObject({ ok: true });
      expect(codeOf(replies[1])).not.toBe('ok');
      expect(replies[2]).toMatchObject({ ok: true, result: 'unread' });
      expect(codeOf(replies[3])).toBe('ALREADY_EXISTS');
      expect(codeOf(replies[4])).toBe('ok');
    },
  );

  it.each(['FIFO', 'folder', 'symlink to a device'])(
    'a %s in place of the version token refuses the add with a typed error',
    async (kind) => {
      await seededHome();
      await plantAt(`${INBOX}/.version`, kind);
      const replies = await callAll(kind, [['addEntry', [INBOX, 'm9', 'x']]]);
      expectTypedWithinTime(replies, [['addEntry', []]]);
      expect(codeOf(replies[0])).not.toBe('ok');
      expect(fs.existsSync(at(`${INBOX}/m9.json`))).toBe(false);
    },
  );
});

describe('hostile folders', () => {
  it('a file where the home should be is a typed error, not ENOTDIR', async () => {
    fs.writeFileSync(home(), 'not a folder');
    const replies = await callAll('file', [
      ['read', [VALUE]],
      ['put', [VALUE, 'x']],
      ['list', ['']],
    ]);
    expect(replies.map(codeOf)).toEqual(['IO_ERROR', 'IO_ERROR', 'IO_ERROR']);
  });

  it('a file where a folder should be is CORRUPT_DOCUMENT, not ENOTDIR', async () => {
    await seededHome();
    fs.rmSync(at('runtime/r/inboxes'), { recursive: true });
    fs.writeFileSync(at('runtime/r/inboxes'), 'not a folder');
    const replies = await callAll('file', [
      ['addEntry', [INBOX, 'm1', 'x']],
      ['listEntries', [INBOX, 'unread']],
      ['put', ['runtime/r/inboxes/x.json', 'x']],
    ]);
    expect(replies.map(codeOf)).toEqual([
      'CORRUPT_DOCUMENT',
      'CORRUPT_DOCUMENT',
      'CORRUPT_DOCUMENT',
    ]);
  });
});
