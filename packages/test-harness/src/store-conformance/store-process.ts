import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { WorkerReply, WorkerRequest } from './worker-protocol.js';

/** A store opened in its own Node.js process, driven request by request. */
export interface StoreProcess {
  readonly pid: number;
  /** Sends one request; resolves with the reply (errors are replies too, never rejections). */
  call(request: WorkerRequest): Promise<WorkerReply>;
  /** Freezes the process (SIGSTOP) until {@link StoreProcess.resume}. */
  pause(): void;
  /** Lets a frozen process run again (SIGCONT). */
  resume(): void;
  /** Ends the process (SIGKILL) and waits until it has ended. */
  stop(): Promise<void>;
}

/**
 * The worker's Node.js arguments. Given `nodeArgs` that load TypeScript while this suite
 * itself runs from source (a checkout of the harness), the worker runs from its source
 * beside this file; otherwise it runs the installed package's compiled worker.
 */
function workerCommand(nodeArgs: readonly string[]): string[] {
  if (nodeArgs.length > 0 && import.meta.url.endsWith('.ts')) {
    return [...nodeArgs, fileURLToPath(new URL('./store-worker.ts', import.meta.url))];
  }
  // Resolved through the package's own name so an installed harness finds its compiled worker.
  const require = createRequire(import.meta.url);
  const root = path.dirname(require.resolve('@teamkit/test-harness/package.json'));
  return [...nodeArgs, path.join(root, 'dist', 'store-conformance', 'store-worker.js')];
}

/**
 * Starts a worker that opens the store with `openStore(config)` from `module`; `nodeArgs`
 * (loaders, conditions) go to its Node.js process before the worker script.
 */
export async function startStoreProcess(
  module: string,
  config: unknown,
  nodeArgs: readonly string[] = [],
): Promise<StoreProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    [...workerCommand(nodeArgs), module, JSON.stringify(config)],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  const pid = child.pid;
  if (pid === undefined) throw new Error('could not start a store worker process');
  const waiting = new Map<number, (reply: WorkerReply) => void>();
  let buffered = '';
  let stderr = '';
  let ended = false;
  let nextId = 1;
  let ready: () => void = () => {};
  let failed: (error: Error) => void = () => {};
  const started = new Promise<void>((resolve, reject) => {
    ready = resolve;
    failed = reject;
  });

  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    for (let end = buffered.indexOf('\n'); end !== -1; end = buffered.indexOf('\n')) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      const message = JSON.parse(line) as WorkerReply | { ready: true };
      if ('ready' in message) {
        ready();
        continue;
      }
      waiting.get(message.id)?.(message);
      waiting.delete(message.id);
    }
  });
  const exited = new Promise<void>((resolve) => {
    child.on('close', (code, signal) => {
      ended = true;
      const error = new Error(
        `store worker ${pid} ended (${signal ?? code}) before answering.\n${stderr}`,
      );
      failed(error);
      for (const answer of waiting.values()) {
        answer({ id: -1, ok: false, code: 'WORKER_ENDED', message: error.message });
      }
      waiting.clear();
      resolve();
    });
  });
  await started;

  const signal = (name: NodeJS.Signals) => {
    if (ended) return;
    try {
      process.kill(pid, name);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
    }
  };

  return {
    pid,
    call(request) {
      if (ended) {
        return Promise.resolve({ id: -1, ok: false, code: 'WORKER_ENDED', message: stderr });
      }
      const id = nextId++;
      return new Promise((resolve) => {
        waiting.set(id, resolve);
        child.stdin?.write(`${JSON.stringify({ ...request, id })}\n`);
      });
    },
    pause: () => signal('SIGSTOP'),
    resume: () => signal('SIGCONT'),
    async stop() {
      signal('SIGCONT');
      signal('SIGKILL');
      await exited;
    },
  };
}
