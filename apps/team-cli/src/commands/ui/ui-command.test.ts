import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { plantClaudeTeam } from '@teamkit/ui/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI_BIN, createTempHome, runCli } from '../../test-support/run-cli.js';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

describe('team ui', () => {
  it('refuses a port out of range as a usage error', async () => {
    const temp = await createTempHome();
    cleanup = temp.cleanup;
    const result = await runCli(['ui', '--port', '70000', '--json'], { TEAMKIT_HOME: temp.home });
    expect(result.code).toBe(2);
    expect(result.json().ok).toBe(false);
  });

  it('prints a one-time sign-in URL on 127.0.0.1, lists Claude Code teams, and stops on Ctrl-C', async () => {
    const temp = await createTempHome();
    const configDir = await mkdtemp(path.join(os.tmpdir(), 'teamkit-ui-command-claude-'));
    cleanup = async () => {
      await temp.cleanup();
      await rm(configDir, { recursive: true, force: true });
    };
    await plantClaudeTeam(configDir, 'session-7a052ba9', { leadPid: process.pid });
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      TEAMKIT_HOME: temp.home,
      CLAUDE_CONFIG_DIR: configDir,
    };
    delete env.TEAMKIT_MEMBER;
    delete env.TEAMKIT_RUN;
    const child = spawn(process.execPath, [CLI_BIN, 'ui', '--json'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const line = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.setEncoding('utf8');
      child.stdout.on('data', (chunk: string) => {
        out += chunk;
        if (out.includes('\n')) resolve(out.split('\n')[0] ?? '');
      });
      child.once('exit', (code) => reject(new Error(`team ui exited ${code}`)));
    });
    const printed = JSON.parse(line) as { ok: boolean; url: string; port: number };
    expect(printed.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{20,}$/);
    const page = await fetch(printed.url, { redirect: 'manual' });
    expect(page.status).toBe(303);
    // The runs view's list starts a watch of Claude Code's teams; Ctrl-C still ends it all.
    const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const runs = (await (
      await fetch(`http://127.0.0.1:${printed.port}/api/runs`, { headers: { Cookie: cookie } })
    ).json()) as { runs: { source: string; runId: string; status: string }[] };
    expect(runs.runs).toEqual([
      expect.objectContaining({ source: 'claude-code', runId: 'session-7a052ba9', status: 'live' }),
    ]);
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    await expect(fetch(`http://127.0.0.1:${printed.port}/`)).rejects.toThrow();
  });
});
