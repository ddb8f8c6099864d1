import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sourceNodeArgs } from '@teamkit/repo-testing';
import { afterEach } from 'vitest';

const fixtures = fileURLToPath(new URL('../__fixtures__/', import.meta.url));
const running = new Set<ChildProcess>();

/** A fixture script running in its own Node.js process. */
export interface WorkerProcess {
  readonly pid: number;
  /** Every stdout line so far. */
  lines(): string[];
  /** Writes a line to the worker's stdin. */
  send(line: string): void;
  /** Resolves with the exit code once the process ended and its output was read. */
  readonly exited: Promise<number | null>;
  /** Everything written to stderr. */
  stderr(): string;
}

/** Starts `__fixtures__/<fixture>` with `args` under this Node.js binary. */
export function startWorkerProcess(fixture: string, args: string[]): WorkerProcess {
  const child = spawn(
    process.execPath,
    [...sourceNodeArgs(), path.join(fixtures, fixture), ...args],
    {
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  if (child.pid === undefined) throw new Error(`could not start ${fixture}`);
  running.add(child);
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk;
  });
  const exited = new Promise<number | null>((resolve) => {
    child.on('close', (code) => {
      running.delete(child);
      resolve(code);
    });
  });
  return {
    pid: child.pid,
    lines: () => out.split('\n').filter((line) => line !== ''),
    send: (line) => child.stdin.write(`${line}\n`),
    exited,
    stderr: () => err,
  };
}

/** Kills, by pid, every worker a test of the file left running. */
export function useWorkerCleanup(): void {
  afterEach(() => {
    for (const child of running) {
      if (child.pid !== undefined && child.exitCode === null) process.kill(child.pid, 'SIGKILL');
    }
    running.clear();
  });
}
