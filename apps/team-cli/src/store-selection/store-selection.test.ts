import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { resolveSettings } from '@teamkit/team-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readStoreSelection } from './store-selection.js';

const FILE = { url: 'file', credsFile: '' };
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
      { url: 'nats://setting:4222', credsFile: '' },
      { TEAMKIT_STORE: 'nats://team%20kit:p%40ss@10.0.0.1:4222,nats://10.0.0.2:4222' },
    );
    expect(selection).toEqual({
      kind: 'nats',
      source: 'environment',
      shown: 'nats://10.0.0.1:4222,nats://10.0.0.2:4222',
      options: {
        servers: ['nats://10.0.0.1:4222', 'nats://10.0.0.2:4222'],
        credentials: { user: 'team kit', pass: 'p@ss' },
      },
    });
    const token = await readStoreSelection(
      { url: 'tls://s3cret@nats.internal:4222', credsFile: '' },
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
    const url = { url: 'nats://127.0.0.1:4222', credsFile: '' };
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
      readStoreSelection({ url: 'nats://h:1', credsFile: junk }, {}),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(
      readStoreSelection({ url: 'nats://h:1', credsFile: path.join(folder, 'absent') }, {}),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });
});

describe('store.url and store.credsFile are red lines', () => {
  it('ignores a project that points the runs at a server, and keeps the global choice', () => {
    const resolved = resolveSettings([
      { scope: 'global', file: 'global.json', settings: { 'store.url': 'nats://mine:4222' } },
      {
        scope: 'project',
        file: 'project.json',
        settings: { store: { url: 'nats://theirs:4222', credsFile: '/tmp/theirs.creds' } },
      },
    ]);
    expect(resolved.values['store.url']).toBe('nats://mine:4222');
    expect(resolved.values['store.credsFile']).toBe('');
    expect(resolved.ignoredRedLine.map((entry) => entry.key).sort()).toEqual([
      'store.credsFile',
      'store.url',
    ]);
    // Not even "file": a project cannot undo the user's choice either.
    const back = resolveSettings([
      { scope: 'global', file: 'global.json', settings: { 'store.url': 'nats://mine:4222' } },
      { scope: 'project', file: 'project.json', settings: { 'store.url': 'file' } },
    ]);
    expect(back.values['store.url']).toBe('nats://mine:4222');
  });
});
