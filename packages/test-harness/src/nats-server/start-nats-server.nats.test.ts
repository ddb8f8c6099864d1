import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findNatsServer } from './find-nats-server.js';
import { startNatsServer } from './start-nats-server.js';

const found = findNatsServer();
const reason = found.found ? undefined : found.reason;
if (reason !== undefined) process.stderr.write(`skipping nats-server tests: ${reason}\n`);

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(20);
  }
}

describe.skipIf(reason !== undefined)('startNatsServer', () => {
  it('runs a private server on a free loopback port that can be killed and restarted', async () => {
    const server = await startNatsServer();
    try {
      expect(server.url).toBe(`nats://127.0.0.1:${server.port}`);
      expect(await accepts(server.port)).toBe(true);
      const first = server.pid as number;
      await server.kill();
      expect(server.running).toBe(false);
      await waitFor(() => !alive(first), 'the killed server to be gone');
      expect(await accepts(server.port)).toBe(false);
      await server.restart();
      expect(server.pid).not.toBe(first);
      expect(await accepts(server.port)).toBe(true);
    } finally {
      await server.close();
    }
    expect(existsSync(server.storeDir)).toBe(false);
  });

  it('stops the server when the process that started it dies', async () => {
    const script = fileURLToPath(new URL('./__fixtures__/start-and-wait.mjs', import.meta.url));
    const child = spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const line = await new Promise<string>((resolve) => {
      child.stdout?.setEncoding('utf8').once('data', (chunk: string) => resolve(chunk));
    });
    const { pid, port } = JSON.parse(line) as { pid: number; port: number };
    expect(alive(pid)).toBe(true);
    child.kill('SIGKILL');
    await waitFor(() => !alive(pid), 'the orphaned server to stop');
    expect(await accepts(port)).toBe(false);
  });
});
