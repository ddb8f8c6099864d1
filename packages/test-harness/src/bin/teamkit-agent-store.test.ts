import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const BIN = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../dist/bin/teamkit-agent.js',
);

function runAgent(env: Record<string, string>): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN],
      { env: { PATH: process.env.PATH ?? '', ...env }, timeout: 30_000 },
      (error, _stdout, stderr) =>
        resolve({ code: error === null ? 0 : Number(error.code ?? 1), stderr }),
    );
  });
}

let home: string;
beforeAll(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), 'teamkit-agent-store-'));
});
afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});

describe('teamkit-agent and a shared store', () => {
  const member = { TEAMKIT_RUN: 'r1', TEAMKIT_MEMBER: 'w1' };

  it('refuses a run kept in NATS (TEAMKIT_STORE) with a line that says what to use instead', async () => {
    const result = await runAgent({
      ...member,
      TEAMKIT_HOME: home,
      TEAMKIT_STORE: 'nats://127.0.0.1:4222',
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('works with runs kept in the home folder only');
  });

  it('refuses it when the store.url setting of the home names the server', async () => {
    await writeFile(
      path.join(home, 'config.json'),
      JSON.stringify({ version: 1, settings: { 'store.url': 'nats://127.0.0.1:4222' } }),
    );
    const result = await runAgent({ ...member, TEAMKIT_HOME: home });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--agent claude|codex|opencode|gemini');
  });
});
