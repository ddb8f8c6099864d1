import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { issueMemberCredential } from '@teamkit/team-core';
import { createFileStore } from '@teamkit/team-core/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempHome, runCli } from '../../test-support/run-cli.js';

let home: string;
let cleanup: () => Promise<void>;
let runId: string;
let token: string;
const team = (args: string[], env: Record<string, string> = {}) =>
  runCli([...args, '--home', home], env);
const asImplementer = () => ({
  TEAMKIT_HOME: home,
  TEAMKIT_RUN: runId,
  TEAMKIT_MEMBER: 'implementer',
  TEAMKIT_TOKEN: token,
});

beforeAll(async () => {
  ({ home, cleanup } = await createTempHome());
  const started = await team(['run', 'start', 'coding-team', '--agent-cmd', 'sleep 600', '--json']);
  expect(started.code, started.stderr + started.stdout).toBe(0);
  runId = started.json().runId as string;
  // A fresh secret for the implementer, as its host would hand it (the idle process keeps the old one).
  token = await issueMemberCredential(home, runId, 'implementer', {
    store: createFileStore({ root: home }),
  });
});

afterAll(async () => {
  await team(['run', 'stop', runId, '--force', '--json']);
  await cleanup();
});

describe('team artifact', () => {
  it('publishes versions as the calling member and reads them back', async () => {
    const file = path.join(home, 'design.md');
    await writeFile(file, '# Design\n\nFirst cut.\n');
    const put = await team(
      ['artifact', 'put', 'design', '--file', file, '--title', 'Design', '--json'],
      asImplementer(),
    );
    expect(put.code, put.stderr).toBe(0);
    expect(put.json().artifact).toMatchObject({
      name: 'design',
      revision: 1,
      author: 'implementer',
    });
    await writeFile(file, '# Design\n\nSecond cut.\n');
    const again = await team(['artifact', 'put', runId, 'design', '--file', file]);
    expect(again.stdout).toMatch(/^published design v2 by \S+ \(\d+ bytes\)/);
    expect((await team(['artifact', 'get', runId, 'design'])).stdout).toBe(
      '# Design\n\nSecond cut.\n',
    );
    expect((await team(['artifact', 'get', runId, 'design', '--version', '1'])).stdout).toContain(
      'First cut.',
    );
    const listed = await team(['artifact', 'list', runId, '--json']);
    expect(listed.json().artifacts).toMatchObject([
      { name: 'design', versions: 2, latest: { revision: 2 } },
    ]);
  });

  it('refuses bad names and unknown artifacts with their codes', async () => {
    const bad = await team(['artifact', 'put', runId, '../escape', '--file', __filename]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('INVALID_INPUT');
    const missing = await team(['artifact', 'get', runId, 'nothing']);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain('UNKNOWN_ARTIFACT');
  });
});
