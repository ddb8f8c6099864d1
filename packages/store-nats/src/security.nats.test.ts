import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { promisify } from 'node:util';
import { nkeys } from '@nats-io/transport-node';
import { isTeamkitError } from '@teamkit/team-core';
import { type NatsServerProcess, startNatsServer } from '@teamkit/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNatsStore, type NatsStoreOptions } from './index.js';
import { natsServerMissing, uniquePrefix } from './test-support/nats-test-server.js';

const missing = natsServerMissing();
const run = promisify(execFile);
const KEY = 'runtime/r1/state.json';

async function codeOf(operation: () => Promise<unknown>): Promise<string> {
  try {
    await operation();
  } catch (error) {
    return isTeamkitError(error) ? error.code : `RAW:${String(error)}`;
  }
  return 'resolved';
}

let trips = 0;

/** Opens a store, writes and reads one value, adds and lists an entry, then closes it. */
async function roundTrip(options: NatsStoreOptions): Promise<void> {
  const store = await createNatsStore({ timeoutMs: 5_000, ...options });
  trips += 1;
  try {
    const revision = await store.put(KEY, 'hello');
    expect(await store.read(KEY)).toEqual({ text: 'hello', revision });
    await store.addEntry('runtime/r1/inboxes/lead', `m${trips}`, 'x');
    expect(await store.entryState('runtime/r1/inboxes/lead', `m${trips}`)).toBe('unread');
    await store.append('runtime/r1/events.jsonl', 'line');
    expect(await store.withLock(KEY, async () => 'held')).toBe('held');
  } finally {
    await store.close();
  }
}

/** A CA and a server certificate for 127.0.0.1, made with openssl. */
async function makeCertificates(folder: string) {
  const file = (name: string) => path.join(folder, name);
  await run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '1',
    '-subj',
    '/CN=teamkit-test-ca',
    '-keyout',
    file('ca.key'),
    '-out',
    file('ca.pem'),
  ]);
  await run('openssl', [
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-subj',
    '/CN=127.0.0.1',
    '-keyout',
    file('server.key'),
    '-out',
    file('server.csr'),
  ]);
  // The client checks the name `localhost` for a loopback server.
  await writeFile(file('san.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  await run('openssl', [
    'x509',
    '-req',
    '-in',
    file('server.csr'),
    '-CA',
    file('ca.pem'),
    '-CAkey',
    file('ca.key'),
    '-CAcreateserial',
    '-days',
    '1',
    '-extfile',
    file('san.ext'),
    '-out',
    file('server.pem'),
  ]);
  return { ca: file('ca.pem'), cert: file('server.pem'), key: file('server.key') };
}

describe.skipIf(missing !== undefined)('NATS store security', () => {
  let folder = '';
  let server: NatsServerProcess | undefined;
  const user = nkeys.createUser();
  const seed = new TextDecoder().decode(user.getSeed());

  beforeAll(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'teamkit-nats-security-'));
    // One account for Teamkit (its own JetStream), one for everything else.
    await writeFile(
      path.join(folder, 'server.conf'),
      `accounts {
  TEAMKIT: {
    jetstream: enabled
    users: [
      { user: teamkit, password: s3cret }
      { nkey: ${user.getPublicKey()} }
      { user: reader, password: r3ad, permissions: { publish: { allow: ["$JS.API.>"] }, subscribe: { allow: ["_INBOX.>"] } } }
      { user: scoped, password: sc0ped, permissions: {
          publish: { allow: ["$JS.API.>", "$KV.scoped.>", "scoped.log.>", "$O.scoped-blobs.>", "$JS.FC.>"] }
          subscribe: { allow: ["_INBOX.>", "$KV.scoped.>", "scoped.log.>"] }
      } }
    ]
  }
  OTHER: { jetstream: enabled, users: [ { user: other, password: other } ] }
}
`,
    );
    server = await startNatsServer({ args: ['-c', path.join(folder, 'server.conf')] });
  });
  afterAll(async () => {
    await server?.close();
    await rm(folder, { recursive: true, force: true });
  });
  const servers = () => (server as NatsServerProcess).url;

  it('works with a user and password, and with an nkey', async () => {
    const bucketPrefix = uniquePrefix('auth');
    await roundTrip({
      servers: servers(),
      bucketPrefix,
      credentials: { user: 'teamkit', pass: 's3cret' },
    });
    await roundTrip({ servers: servers(), bucketPrefix, credentials: { nkeySeed: seed } });
  });

  it('refuses a wrong password and a user without the store permissions with PERMISSION_DENIED', async () => {
    const bucketPrefix = uniquePrefix('auth');
    expect(
      await codeOf(() =>
        createNatsStore({
          servers: servers(),
          bucketPrefix,
          credentials: { user: 'teamkit', pass: 'wrong' },
        }),
      ),
    ).toBe('PERMISSION_DENIED');
    await roundTrip({
      servers: servers(),
      bucketPrefix,
      credentials: { user: 'teamkit', pass: 's3cret' },
    });
    const reader = await createNatsStore({
      servers: servers(),
      bucketPrefix,
      credentials: { user: 'reader', pass: 'r3ad' },
      timeoutMs: 3_000,
    });
    try {
      expect(await codeOf(() => reader.put(KEY, 'not allowed'))).toBe('PERMISSION_DENIED');
    } finally {
      await reader.close();
    }
  });

  it('works with exactly the rights docs/distributed.md lists for a shared account', async () => {
    const options = {
      servers: servers(),
      bucketPrefix: 'scoped',
      credentials: { user: 'scoped', pass: 'sc0ped' },
      inlineLimitBytes: 64,
    };
    await roundTrip(options);
    const store = await createNatsStore(options);
    try {
      const seen: string[] = [];
      const stop = await store.watch('runtime', (changes) => {
        seen.push(...changes.map((change) => change.key));
      });
      await store.put('runtime/r2/large.json', 'x'.repeat(10_000));
      expect((await store.read('runtime/r2/large.json'))?.text).toHaveLength(10_000);
      await store.append('runtime/r2/events.jsonl', 'watched');
      const deadline = Date.now() + 15_000;
      while (!seen.includes('runtime/r2/events.jsonl') && Date.now() < deadline) {
        await delay(20);
      }
      await stop();
      expect(seen).toContain('runtime/r2/large.json');
      expect(seen).toContain('runtime/r2/events.jsonl');
      expect(await store.list('runtime')).toEqual(['r1', 'r2']);
      expect(await codeOf(() => store.removeStaleTemporaries('', 0))).toBe('resolved');
    } finally {
      await store.close();
    }
  });

  it('keeps accounts apart: another account sees none of the store', async () => {
    const bucketPrefix = uniquePrefix('auth');
    await roundTrip({
      servers: servers(),
      bucketPrefix,
      credentials: { user: 'teamkit', pass: 's3cret' },
    });
    const outsider = await createNatsStore({
      servers: servers(),
      bucketPrefix,
      credentials: { user: 'other', pass: 'other' },
    });
    try {
      expect(await outsider.read(KEY)).toBeUndefined();
      expect(await outsider.list('')).toEqual([]);
    } finally {
      await outsider.close();
    }
  });

  it('works over TLS with the CA that signed the server', async () => {
    const certificates = await makeCertificates(folder);
    const tlsServer = await startNatsServer({
      args: ['--tls', '--tlscert', certificates.cert, '--tlskey', certificates.key],
    });
    try {
      const url = `tls://127.0.0.1:${tlsServer.port}`;
      await roundTrip({
        servers: url,
        bucketPrefix: uniquePrefix('tls'),
        tls: { caFile: certificates.ca },
      });
      expect(
        await codeOf(() =>
          createNatsStore({ servers: url, bucketPrefix: uniquePrefix('tls'), timeoutMs: 2_000 }),
        ),
      ).toBe('IO_ERROR');
    } finally {
      await tlsServer.close();
    }
  });
});
