import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { errorMessage } from '@teamkit/team-core/errors';

/** Parent -> worker messages. */
export type ToWorker =
  | { type: 'init'; init: unknown }
  | { type: 'run'; payload: unknown }
  | { type: 'stop' };

/** Worker -> parent messages. */
export type FromWorker =
  | { type: 'ready' }
  | { type: 'done'; result: unknown }
  | { type: 'failed'; message: string };

interface Waiter {
  resolve(message: FromWorker): void;
  reject(error: Error): void;
}

class WorkerHandle {
  private readonly waiters: Waiter[] = [];
  private readonly inbox: FromWorker[] = [];
  private exited: Error | undefined;
  stopping = false;

  constructor(
    readonly child: ChildProcess,
    readonly name: string,
  ) {
    child.on('message', (message: FromWorker) => {
      const waiter = this.waiters.shift();
      if (waiter) waiter.resolve(message);
      else this.inbox.push(message);
    });
    child.on('exit', (code, signal) => {
      if (this.stopping && code === 0) return;
      this.exited = new Error(`worker ${name} exited (code ${code}, signal ${signal})`);
      for (const waiter of this.waiters.splice(0)) waiter.reject(this.exited);
    });
  }

  send(message: ToWorker): void {
    this.child.send(message);
  }

  async next(): Promise<unknown> {
    const queued = this.inbox.shift();
    const message =
      queued ??
      (await new Promise<FromWorker>((resolve, reject) => {
        if (this.exited) reject(this.exited);
        else this.waiters.push({ resolve, reject });
      }));
    if (message.type === 'failed') throw new Error(`worker ${this.name}: ${message.message}`);
    return message.type === 'done' ? message.result : undefined;
  }
}

/** Real Node processes running one worker script, driven round by round over IPC. */
export interface WorkerPool {
  readonly size: number;
  /**
   * Sends each worker its payload at once and waits for all results. `wallMs` runs from
   * just before the first payload is sent until the last result arrives.
   */
  runRound(payloads: readonly unknown[]): Promise<{ wallMs: number; results: unknown[] }>;
  close(): Promise<void>;
}

/**
 * Starts one process per `inits` entry running `script` (a compiled worker beside this
 * file), sends each its init and waits until all are ready.
 */
export async function startWorkerPool(script: URL, inits: readonly unknown[]): Promise<WorkerPool> {
  const handles = inits.map(
    (_, index) =>
      new WorkerHandle(
        fork(fileURLToPath(script), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }),
        `${index}`,
      ),
  );
  const close = async () => {
    await Promise.all(
      handles.map(
        (handle) =>
          new Promise<void>((resolve) => {
            if (handle.child.exitCode !== null || handle.child.signalCode !== null) {
              resolve();
              return;
            }
            handle.stopping = true;
            const timer = setTimeout(() => handle.child.kill('SIGKILL'), 10_000);
            handle.child.once('exit', () => {
              clearTimeout(timer);
              resolve();
            });
            if (handle.child.connected) handle.send({ type: 'stop' });
            else handle.child.kill('SIGKILL');
          }),
      ),
    );
  };
  try {
    handles.forEach((handle, index) => {
      handle.send({ type: 'init', init: inits[index] });
    });
    await Promise.all(handles.map((handle) => handle.next()));
  } catch (error) {
    await close();
    throw error;
  }
  return {
    size: handles.length,
    async runRound(payloads) {
      const started = performance.now();
      handles.forEach((handle, index) => {
        handle.send({ type: 'run', payload: payloads[index] });
      });
      const results = await Promise.all(handles.map((handle) => handle.next()));
      return { wallMs: performance.now() - started, results };
    },
    close,
  };
}

/** What a worker script implements; see {@link serveWorker}. */
export interface WorkerHandlers<Init, Payload> {
  init(init: Init): Promise<void>;
  run(payload: Payload): Promise<unknown>;
  close(): Promise<void>;
}

/** Runs inside a worker process: answers the pool's init/run/stop messages. */
export function serveWorker<Init, Payload>(handlers: WorkerHandlers<Init, Payload>): void {
  const reply = (message: FromWorker) => process.send?.(message);
  const failed = (error: unknown) =>
    reply({
      type: 'failed',
      message: errorMessage(error, { stack: true }),
    });
  let closing = false;
  const closeAndExit = () => {
    if (closing) return;
    closing = true;
    handlers
      .close()
      .catch((error: unknown) => {
        console.error(error);
        process.exitCode = 1;
      })
      .finally(() => process.exit());
  };
  process.on('message', (message: ToWorker) => {
    if (message.type === 'init') {
      handlers.init(message.init as Init).then(() => reply({ type: 'ready' }), failed);
    } else if (message.type === 'run') {
      handlers
        .run(message.payload as Payload)
        .then((result) => reply({ type: 'done', result }), failed);
    } else {
      closeAndExit();
    }
  });
  process.on('disconnect', closeAndExit);
}
