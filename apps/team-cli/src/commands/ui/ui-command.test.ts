import { spawn } from 'node:child_process';
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

  it('prints a one-time sign-in URL on 127.0.0.1 and stops on Ctrl-C', async () => {
    const temp = await createTempHome();
    cleanup = temp.cleanup;
    const env: NodeJS.ProcessEnv = { ...process.env, TEAMKIT_HOME: temp.home };
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
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    await expect(fetch(`http://127.0.0.1:${printed.port}/`)).rejects.toThrow();
  });
});
