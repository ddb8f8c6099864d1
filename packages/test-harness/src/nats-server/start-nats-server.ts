import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { findNatsServer } from './find-nats-server.js';
import { freeLoopbackPort as freePort } from './free-port.js';

/** Options of {@link startNatsServer}. */
export interface StartNatsServerOptions {
  /** The JetStream store folder (`-sd`); a fresh temp folder when omitted, removed by `close`. */
  storeDir?: string;
  /** More command-line arguments, e.g. `['--user', 'a', '--pass', 'b']`. */
  args?: string[];
  /** The program; found with `findNatsServer` when omitted. */
  program?: string;
  /** How long to wait for "Server is ready"; 20 000 ms by default. */
  readyTimeoutMs?: number;
}

/** A private `nats-server -js` on a free 127.0.0.1 port, for one test file or one bench figure. */
export interface NatsServerProcess {
  /** `nats://127.0.0.1:<port>`. */
  readonly url: string;
  readonly port: number;
  readonly storeDir: string;
  /** The server's pid while it runs. */
  readonly pid: number | undefined;
  readonly running: boolean;
  /** Everything the server logged since it was started. */
  log(): string;
  /** Stops the server gracefully (SIGTERM) and waits for it to end. */
  stop(): Promise<void>;
  /** Kills the server (SIGKILL), as a crash, and waits for it to end. */
  kill(): Promise<void>;
  /** Freezes the server (SIGSTOP): clients stay connected but get no answers. */
  pause(): void;
  /** Lets a frozen server run again (SIGCONT). */
  resume(): void;
  /** Starts the server again on the same port with the same store folder. */
  restart(): Promise<void>;
  /** Stops the server and removes the store folder if this helper made it. */
  close(): Promise<void>;
}

/** The compiled guardian that stops a server when the test process that started it ends. */
export function guardianScript(): string {
  // Resolved through the package's own name so it is the compiled guardian whether this
  // module runs from dist/ or from src/ under vitest.
  const require = createRequire(import.meta.url);
  const root = path.dirname(require.resolve('@teamkit/test-harness/package.json'));
  return path.join(root, 'dist', 'nats-server', 'nats-server-guardian.js');
}

interface Running {
  guardian: ChildProcess;
  serverPid: number | undefined;
  exited: Promise<void>;
}

/**
 * Starts `nats-server -a 127.0.0.1 -p <free port> -js -sd <folder>` and waits until it is
 * ready. A guardian process stops the server when this process ends, so no server outlives
 * the test that started it. Throws when the program is missing (check `findNatsServer` first).
 */
export async function startNatsServer(
  options: StartNatsServerOptions = {},
): Promise<NatsServerProcess> {
  let program = options.program;
  if (program === undefined) {
    const found = findNatsServer({ required: true });
    if (!found.found) throw new Error(found.reason);
    program = found.path;
  }
  const ownsStore = options.storeDir === undefined;
  const storeDir =
    options.storeDir ?? (await mkdtemp(path.join(os.tmpdir(), 'teamkit-nats-server-')));
  const readyTimeoutMs = options.readyTimeoutMs ?? 20_000;
  let port = 0;
  let log = '';
  let current: Running | undefined;

  async function launch(): Promise<void> {
    const args = ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir];
    const guardian = spawn(
      process.execPath,
      [guardianScript(), program as string, ...args, ...(options.args ?? [])],
      {
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    const running: Running = {
      guardian,
      serverPid: undefined,
      exited: new Promise((resolve) => guardian.once('close', () => resolve())),
    };
    current = running;
    guardian.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      const pid = /pid ([0-9]+)/.exec(chunk)?.[1];
      if (pid !== undefined) running.serverPid = Number(pid);
    });
    let launchLog = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        guardian.stdin?.end();
        reject(new Error(`nats-server was not ready within ${readyTimeoutMs} ms:\n${launchLog}`));
      }, readyTimeoutMs);
      guardian.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
        log += chunk;
        launchLog += chunk;
        if (launchLog.includes('Server is ready')) {
          clearTimeout(timer);
          resolve();
        }
      });
      void running.exited.then(() => {
        clearTimeout(timer);
        if (current === running) current = undefined;
        reject(new Error(`nats-server ended before it was ready:\n${launchLog}`));
      });
    });
  }

  for (let attempt = 0; ; attempt += 1) {
    port = await freePort();
    try {
      await launch();
      break;
    } catch (error) {
      // Another process took the probed port between the probe and the server's bind.
      if (attempt < 4 && /address already in use/i.test(log)) continue;
      if (ownsStore) await rm(storeDir, { recursive: true, force: true });
      throw error;
    }
  }

  async function end(signal: 'SIGTERM' | 'SIGKILL'): Promise<void> {
    const running = current;
    if (running === undefined) return;
    current = undefined;
    if (signal === 'SIGKILL' && running.serverPid !== undefined) {
      try {
        process.kill(running.serverPid, 'SIGKILL');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
      }
    } else {
      running.guardian.stdin?.end();
    }
    await running.exited;
  }

  function signalServer(signal: 'SIGSTOP' | 'SIGCONT'): void {
    const pid = current?.serverPid;
    if (pid === undefined) throw new Error('nats-server is not running');
    process.kill(pid, signal);
  }

  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    storeDir,
    get pid() {
      return current?.serverPid;
    },
    get running() {
      return current !== undefined;
    },
    log: () => log,
    stop: () => end('SIGTERM'),
    async kill() {
      if (current?.serverPid !== undefined) {
        try {
          process.kill(current.serverPid, 'SIGCONT');
        } catch {
          // Already gone.
        }
      }
      await end('SIGKILL');
    },
    pause: () => signalServer('SIGSTOP'),
    resume: () => signalServer('SIGCONT'),
    async restart() {
      await end('SIGTERM');
      await launch();
    },
    async close() {
      if (current?.serverPid !== undefined) {
        try {
          process.kill(current.serverPid, 'SIGCONT');
        } catch {
          // Already gone.
        }
      }
      await end('SIGTERM');
      if (ownsStore) await rm(storeDir, { recursive: true, force: true });
    },
  };
}
