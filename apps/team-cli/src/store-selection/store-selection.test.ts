import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { resolveSettings } from '@teamkit/team-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readStoreSelection } from './store-selection.js';

const FILE = { url: 'file', credsFile: '', replicas: 1 };
let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'teamkit-store-selection-'));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('readStoreSelection', () => {
  it('keeps runs in the home folder unless a store is named', async () => {
    expect(await readStoreSelection(FILE, {})).toEqual({ kind: 'file', source: 'default' });
    expect(await readStoreSelection(FILE, { TEAMKIT_STORE: 'file' })).toEqual({
      kind: 'file',
      source: 'environment',
    });
  });

  it('takes TEAMKIT_STORE over the setting, and splits credentials out of the URLs', async () => {
    const selection = await readStoreSelection(
      { url: 'nats://setting:4222', credsFile: '', replicas: 1 },
      { TEAMKIT_STORE: 'nats://team%20kit:p%40ss@10.0.0.1:4222,nats://10.0.0.2:4222' },
    );
    expect(selection).toEqual({
      kind: 'nats',
      source: 'environment',
      shown: 'nats://10.0.0.1:4222,nats://10.0.0.2:4222',
      replicasSource: 'setting',
      options: {
        replicas: 1,
        servers: ['nats://10.0.0.1:4222', 'nats://10.0.0.2:4222'],
        credentials: { user: 'team kit', pass: 'p@ss' },
      },
    });
    const token = await readStoreSelection(
      { url: 'tls://s3cret@nats.internal:4222', credsFile: '', replicas: 1 },
      {
        TEAMKIT_STORE_TLS_CA: '/etc/ca.pem',
      },
    );
    expect(token).toMatchObject({
      source: 'setting',
      shown: 'tls://nats.internal:4222',
      options: { credentials: { token: 's3cret' }, tls: { caFile: '/etc/ca.pem' } },
    });
  });

  it('reads a .creds file or an nkey seed file from TEAMKIT_STORE_CREDS', async () => {
    const creds = path.join(folder, 'user.creds');
    await writeFile(creds, '-----BEGIN NATS USER JWT-----\neyJ0\n------END NATS USER JWT------\n');
    const seed = path.join(folder, 'user.nk');
    await writeFile(seed, 'SUACSSL3UAHUDXKFSNVUZRF5UHPMWZ6BFDTJ7M6USDXIEDNPPQYYYCU3VY\n');
    const url = { url: 'nats://127.0.0.1:4222', credsFile: '', replicas: 1 };
    expect(await readStoreSelection(url, { TEAMKIT_STORE_CREDS: creds })).toMatchObject({
      options: { credentials: { credsFile: creds } },
    });
    expect(await readStoreSelection({ ...url, credsFile: seed }, {})).toMatchObject({
      options: {
        credentials: { nkeySeed: 'SUACSSL3UAHUDXKFSNVUZRF5UHPMWZ6BFDTJ7M6USDXIEDNPPQYYYCU3VY' },
      },
    });
  });

  it('refuses what is not a store with INVALID_INPUT, never printing a password', async () => {
    for (const value of ['http://u:hunter2@x:1', 'nats//x', 'redis://h:1']) {
      const refused = await readStoreSelection(FILE, { TEAMKIT_STORE: value }).catch(
        (error) => error,
      );
      expect(refused).toMatchObject({ code: 'INVALID_INPUT' });
      expect(JSON.stringify({ message: refused.message, details: refused.details })).not.toContain(
        'hunter2',
      );
    }
    const junk = path.join(folder, 'junk');
    await writeFile(junk, 'not a credential');
    await expect(
      readStoreSelection({ url: 'nats://h:1', credsFile: junk, replicas: 1 }, {}),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(
      readStoreSelection(
        { url: 'nats://h:1', credsFile: path.join(folder, 'absent'), replicas: 1 },
        {},
      ),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });

  it('takes the replicas of new streams from store.replicas, or TEAMKIT_STORE_REPLICAS', async () => {
    const cluster = {
      url: 'nats://a:4222,nats://b:4222,nats://c:4222',
      credsFile: '',
      replicas: 3,
    };
    expect(await readStoreSelection(cluster, {})).toMatchObject({
      replicasSource: 'setting',
      options: { replicas: 3 },
    });
    expect(await readStoreSelection(cluster, { TEAMKIT_STORE_REPLICAS: '5' })).toMatchObject({
      replicasSource: 'environment',
      options: { replicas: 5 },
    });
    for (const value of ['2', 'three', '3.0', '-1']) {
      await expect(
        readStoreSelection(cluster, { TEAMKIT_STORE_REPLICAS: value }),
      ).rejects.toMatchObject({
        code: 'INVALID_INPUT',
        message: expect.stringContaining('TEAMKIT_STORE_REPLICAS must be 1, 3 or 5'),
      });
    }
  });

  it('refuses a replica count that is not 1, 3 or 5 in the settings, keeping the default', () => {
    const resolved = resolveSettings([
      { scope: 'global', file: 'global.json', settings: { 'store.replicas': 2 } },
    ]);
    expect(resolved.values['store.replicas']).toBe(1);
    expect(resolved.invalid.map((entry) => entry.key)).toEqual(['store.replicas']);
  });
});

describe('store.url, store.credsFile and store.replicas are red lines', () => {
  it('ignores a project that points the runs at a server, and keeps the global choice', () => {
    const resolved = resolveSettings([
      { scope: 'global', file: 'global.json', settings: { 'store.url': 'nats://mine:4222' } },
      {
        scope: 'project',
        file: 'project.json',
        settings: {
          store: { url: 'nats://theirs:4222', credsFile: '/tmp/theirs.creds', replicas: 5 },
        },
      },
    ]);
    expect(resolved.values['store.url']).toBe('nats://mine:4222');
    expect(resolved.values['store.credsFile']).toBe('');
    expect(resolved.ignoredRedLine.map((entry) => entry.key).sort()).toEqual([
      'store.credsFile',
      'store.replicas',
      'store.url',
    ]);
    expect(resolved.values['store.replicas']).toBe(1);
    // Not even "file": a project cannot undo the user's choice either.
    const back = resolveSettings([
      { scope: 'global', file: 'global.json', settings: { 'store.url': 'nats://mine:4222' } },
      { scope: 'project', file: 'project.json', settings: { 'store.url': 'file' } },
    ]);
    expect(back.values['store.url']).toBe('nats://mine:4222');
  });
});
