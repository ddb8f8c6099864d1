import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isTeamkitError } from '../errors/index.js';
import { createFileStore } from '../storage/index.js';
import { createRunFixture, type RunFixture } from '../test-support/run-fixture.js';
import { createRunArtifacts, MAX_ARTIFACT_BYTES } from './create-run-artifacts.js';

let fixture: RunFixture;
beforeEach(async () => {
  fixture = await createRunFixture();
});
afterEach(async () => {
  await fixture.cleanup();
});

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (isTeamkitError(error)) return error.code;
    throw error;
  }
  throw new Error('not refused');
}

describe('run artifacts', () => {
  it('publishes versions, never overwrites, and reads the newest or a given one', async () => {
    const artifacts = createRunArtifacts({
      store: createFileStore({ root: fixture.home }),
      home: fixture.home,
      runId: fixture.runId,
      now: () => 7,
    });
    const first = await artifacts.publish('writer', {
      name: 'design',
      body: '# v1',
      title: 'Design',
    });
    expect(first).toEqual({
      runId: fixture.runId,
      name: 'design',
      revision: 1,
      author: 'writer',
      createdAt: 7,
      title: 'Design',
      bytes: 4,
    });
    await artifacts.publish('lead', { name: 'design', body: '# v2 — ünïcode' });
    expect((await artifacts.read('design')).body).toBe('# v2 — ünïcode');
    expect((await artifacts.read('design', 1)).body).toBe('# v1');
    expect(await artifacts.list()).toMatchObject([
      { name: 'design', versions: 2, latest: { revision: 2, author: 'lead' } },
    ]);
    const folder = path.join(fixture.home, 'runtime', fixture.runId, 'artifacts', 'design');
    expect((await readdir(folder)).filter((name) => !name.startsWith('.')).sort()).toEqual([
      '1.json',
      '2.json',
    ]);
  });

  it('gives concurrent publishers distinct versions', async () => {
    const artifacts = createRunArtifacts({
      store: createFileStore({ root: fixture.home }),
      home: fixture.home,
      runId: fixture.runId,
    });
    const published = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        createRunArtifacts({
          store: createFileStore({ root: fixture.home }),
          home: fixture.home,
          runId: fixture.runId,
        }).publish('writer', {
          name: 'findings',
          body: `finding ${index}`,
        }),
      ),
    );
    expect(published.map((artifact) => artifact.revision).sort((a, b) => a - b)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8,
    ]);
    const bodies = await Promise.all(
      published.map(async (artifact) => (await artifacts.read('findings', artifact.revision)).body),
    );
    expect(new Set(bodies).size).toBe(8);
  });

  it('refuses bad names, oversized bodies, strangers and unknown artifacts, writing nothing', async () => {
    const artifacts = createRunArtifacts({
      store: createFileStore({ root: fixture.home }),
      home: fixture.home,
      runId: fixture.runId,
    });
    const before = await fixture.snapshot({ withEvents: true });
    for (const name of [
      '../state',
      'a/b',
      '.hidden',
      '',
      'Design',
      'a..b',
      'x'.repeat(65),
      'a\u0000',
    ]) {
      expect(await codeOf(artifacts.publish('writer', { name, body: 'x' }))).toBe('INVALID_INPUT');
      expect(await codeOf(artifacts.read(name))).toBe('INVALID_INPUT');
    }
    expect(
      await codeOf(
        artifacts.publish('writer', { name: 'big', body: 'é'.repeat(MAX_ARTIFACT_BYTES / 2 + 1) }),
      ),
    ).toBe('PAYLOAD_TOO_LARGE');
    expect(await codeOf(artifacts.publish('ghost', { name: 'x', body: 'x' }))).toBe(
      'UNKNOWN_MEMBER',
    );
    expect(await codeOf(artifacts.read('missing'))).toBe('UNKNOWN_ARTIFACT');
    expect(await fixture.snapshot({ withEvents: true })).toEqual(before);
    expect(await artifacts.list()).toEqual([]);
  });

  it('refuses publishing once the run stopped working', async () => {
    await fixture.writeState({ status: 'deleted' });
    const artifacts = createRunArtifacts({
      store: createFileStore({ root: fixture.home }),
      home: fixture.home,
      runId: fixture.runId,
    });
    expect(await codeOf(artifacts.publish('writer', { name: 'late', body: 'x' }))).toBe(
      'RUN_NOT_ACTIVE',
    );
  });
});
