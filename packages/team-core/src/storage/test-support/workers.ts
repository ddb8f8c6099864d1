import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sourceNodeArgs } from '@teamkit/repo-testing';
import { afterEach, beforeEach } from 'vitest';
import { makeTempFolder } from '../../test-support/temp-folder.js';

const fixtures = fileURLToPath(new URL('../__fixtures__/', import.meta.url));

/** How a worker process ended. */
export interface WorkerExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A fixture script running in its own Node.js process. */
export interface Worker {
  readonly child: ChildProcess;
  readonly pid: number;
  /** Everything the worker wrote to stdout so far. */
  stdout(): string;
  /** Everything the worker wrote to stderr so far. */
  stderr(): string;
  /** Resolves with the first stdout line that passes `accept`; rejects if the worker ends first. */
  waitForLine(accept: (line: string) => boolean, guardMs?: number): Promise<string>;
  /** Resolves when the process has ended. */
  readonly exited: Promise<WorkerExit>;
  /** Writes a line to the worker's stdin. */
  send(line: string): void;
}

const running = new Set<Worker>();

/** Starts `__fixtures__/<fixture>` with `args` under the current Node.js binary. */
export function startWorker(fixture: string, args: string[]): Worker {
  const child = spawn(
    process.execPath,
    [...sourceNodeArgs(), path.join(fixtures, fixture), ...args],
    {
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  if (child.pid === undefined) throw new Error(`could not start ${fixture}`);
  let out = '';
  let err = '';
  let closed = false;
  const listeners = new Set<() => void>();
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    for (const listener of listeners) listener();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk;
  });
  const exited = new Promise<WorkerExit>((resolve) => {
    // 'close' rather than 'exit': by then every byte the worker wrote has been read.
    child.on('close', (code, signal) => {
      closed = true;
      resolve({ code, signal });
      for (const listener of listeners) listener();
    });
  });
  const worker: Worker = {
    child,
    pid: child.pid,
    stdout: () => out,
    stderr: () => err,
    exited,
    send(line) {
      child.stdin.write(`${line}\n`);
    },
    waitForLine(accept, guardMs = 30_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const line = out.split('\n').find((candidate) => accept(candidate));
          if (line !== undefined) return finish(() => resolve(line));
          if (closed) {
            finish(() =>
              reject(new Error(`${fixture} ended before the expected line.\n${out}\n${err}`)),
            );
          }
        };
        const guard = setTimeout(
          () =>
            finish(() => reject(new Error(`${fixture} gave no expected line.\n${out}\n${err}`))),
          guardMs,
        );
        const finish = (settle: () => void) => {
          clearTimeout(guard);
          listeners.delete(check);
          settle();
        };
        listeners.add(check);
        check();
      });
    },
  };
  running.add(worker);
  void exited.then(() => running.delete(worker));
  return worker;
}

/** SIGKILLs one worker by its pid and waits for it to end. */
export async function killWorker(worker: Worker): Promise<WorkerExit> {
  if (worker.child.exitCode === null && worker.child.signalCode === null) {
    try {
      process.kill(worker.pid, 'SIGKILL');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
    }
  }
  return worker.exited;
}

/** SIGKILLs every worker this module started that is still running; for `afterEach`. */
export async function killAllWorkers(): Promise<void> {
  await Promise.all([...running].map(killWorker));
}

/**
 * Gives each test of the file a fresh temp folder: `onCreated` receives it before the
 * test; after the test, every worker still running is killed and the folder removed.
 */
export function useTempFolder(onCreated: (folder: string) => void): void {
  let remove: (() => Promise<void>) | undefined;
  beforeEach(async () => {
    const made = await makeTempFolder();
    remove = made.cleanup;
    onCreated(made.dir);
  });
  afterEach(async () => {
    await killAllWorkers();
    await remove?.();
  });
}
