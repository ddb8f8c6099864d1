import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { sourceNodeArgs } from '@teamkit/repo-testing';

/** A running worker script: its stdout lines, and promises for its first line and its exit. */
export interface WorkerProcess {
  child: ChildProcess;
  lines: string[];
  stderr: string[];
  /** Resolves on the first stdout line equal to `ready`. */
  ready: Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const running = new Set<ChildProcess>();

/** Starts `node <script> ...args`; every worker is tracked so {@link killAllWorkers} can end it. */
export function startWorker(script: string, args: string[]): WorkerProcess {
  const child = spawn(process.execPath, [...sourceNodeArgs(), script, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  const lines: string[] = [];
  const stderr: string[] = [];
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
    if (line === 'ready') markReady();
    else lines.push(line);
  });
  child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('close', (code, signal) => {
      running.delete(child);
      markReady();
      resolve({ code, signal });
    });
  });
  return { child, lines, stderr, ready, exited };
}

/** Kills, by pid, every worker this process started that is still running. */
export function killAllWorkers(): void {
  for (const child of running) {
    if (child.pid !== undefined && child.exitCode === null) process.kill(child.pid, 'SIGKILL');
  }
}
