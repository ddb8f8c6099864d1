import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { type NatsServerProcess, startNatsServer } from '@teamkit/test-harness';
import { type StoreProcess, startStoreProcess } from '@teamkit/test-harness/store-conformance';
import { createNatsStore, type NatsStore } from '../create-nats-store.js';
import { dropNatsStore, uniquePrefix } from './nats-test-server.js';

const OPENER = fileURLToPath(new URL('../__fixtures__/open-nats-store.mjs', import.meta.url));

/** How another handle reaches the store. */
export interface OpenOptions {
  timeoutMs?: number;
  /** The stale period of locks and add slots. */
  staleMs?: number;
  /** Another URL to the same server (a proxy); the server's own by default. */
  servers?: string;
}

/** A private server, one store on it, and worker processes that open the same store. */
export interface NatsFixture {
  server: NatsServerProcess;
  store: NatsStore;
  /** Starts `count` processes that open the store, through `servers` if given (a proxy). */
  workers(count: number, options?: OpenOptions): Promise<StoreProcess[]>;
  /** Opens another handle on the same store in this process. */
  open(options?: OpenOptions): Promise<NatsStore>;
  close(): Promise<void>;
}

/** Starts a server and opens a fresh store on it; `close` stops everything it started. */
export async function startNatsFixture(timeoutMs = 30_000): Promise<NatsFixture> {
  const server = await startNatsServer();
  const bucketPrefix = uniquePrefix('f');
  const opened: NatsStore[] = [];
  const processes: StoreProcess[] = [];
  const open = async (options: OpenOptions = {}) => {
    const store = await createNatsStore({
      servers: options.servers ?? server.url,
      bucketPrefix,
      timeoutMs: options.timeoutMs ?? timeoutMs,
      ...(options.staleMs === undefined ? {} : { lock: { staleMs: options.staleMs } }),
    });
    opened.push(store);
    return store;
  };
  const store = await open();
  return {
    server,
    store,
    open,
    async workers(count, options = {}) {
      const config = {
        servers: options.servers ?? server.url,
        bucketPrefix,
        timeoutMs: options.timeoutMs ?? timeoutMs,
        staleMs: options.staleMs,
      };
      const started: StoreProcess[] = [];
      for (let index = 0; index < count; index += 1) {
        started.push(await startStoreProcess(OPENER, config));
      }
      processes.push(...started);
      return started;
    },
    async close() {
      await Promise.all(processes.map((worker) => worker.stop()));
      if (server.running) await dropNatsStore(server.url, bucketPrefix).catch(() => {});
      await Promise.all(opened.map((handle) => handle.close().catch(() => {})));
      await server.close();
    },
  };
}

/** Polls `check` until it holds; fails after `timeoutMs`. */
export async function waitUntil(check: () => boolean, what: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(10);
  }
}
