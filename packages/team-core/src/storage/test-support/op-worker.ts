import { killWorker, startWorker, type Worker } from './workers.js';

/** A store call's answer from the op worker. */
export type OpReply = { ok: true; result: unknown } | { ok: false; code: string; message: string };

/** A file store opened in a worker process, called one operation at a time. */
export interface OpWorker {
  /**
   * Runs `store[op](...args)` in the worker. If no answer comes within `timeoutMs`, the
   * worker is killed (it hangs) and the reply is `TIMED_OUT`; later calls start a new one.
   */
  call(op: string, args: unknown[], timeoutMs: number): Promise<OpReply>;
  stop(): Promise<void>;
}

/** Starts `__fixtures__/store-op-worker.mjs` on `root`, unprivileged when asked (and root). */
export async function startOpWorker(root: string, unprivileged = false): Promise<OpWorker> {
  let worker: Worker | undefined;
  let nextId = 1;
  const start = async () => {
    const started = startWorker(
      'store-op-worker.mjs',
      unprivileged ? [root, '--unprivileged'] : [root],
    );
    await started.waitForLine((line) => line.includes('"ready":true'));
    return started;
  };
  return {
    async call(op, args, timeoutMs) {
      worker ??= await start();
      const current = worker;
      const id = nextId++;
      current.send(JSON.stringify({ id, op, args }));
      try {
        const line = await current.waitForLine(
          (text) => text.startsWith(`{"id":${id},`),
          timeoutMs,
        );
        const { ok, result, code, message } = JSON.parse(line);
        return ok ? { ok, result } : { ok, code, message };
      } catch {
        const ended = current.child.exitCode !== null || current.child.signalCode !== null;
        await killWorker(current);
        worker = undefined;
        return ended
          ? { ok: false, code: 'WORKER_ENDED', message: current.stderr() }
          : {
              ok: false,
              code: 'TIMED_OUT',
              message: `${op} gave no answer within ${timeoutMs} ms`,
            };
      }
    },
    async stop() {
      if (worker !== undefined) await killWorker(worker);
      worker = undefined;
    },
  };
}
