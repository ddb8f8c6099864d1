import { createNatsStore } from '@teamkit/store-nats';
import { createFileStore, type TeamkitStore } from '@teamkit/team-core/storage';
import { findNatsServer, type NatsServerProcess, startNatsServer } from '@teamkit/test-harness';
import { type NotAvailable, notAvailable } from '../not-available.js';

/** Where a store figure's store lives: a folder (file store) or a NATS server and prefix. */
export type StoreTarget =
  | { kind: 'file'; root: string }
  | { kind: 'nats'; servers: string; bucketPrefix: string };

/** Opens the store a target names; every process of a figure opens the same one. */
export function openTargetStore(target: StoreTarget): Promise<TeamkitStore> {
  if (target.kind === 'file') return Promise.resolve(createFileStore({ root: target.root }));
  return createNatsStore({
    servers: target.servers,
    bucketPrefix: target.bucketPrefix,
    lock: { staleMs: 10_000, timeoutMs: 60_000 },
  });
}

/** A private nats-server for one figure, stopped by `close`. */
export interface FigureNatsServer {
  target(bucketPrefix: string): StoreTarget;
  close(): Promise<void>;
}

/**
 * Starts a private nats-server (JetStream, file storage, a free loopback port) for a
 * figure, or says why the NATS side cannot be measured here: the figure then reports
 * it as not available instead of failing.
 */
export async function startFigureNatsServer(
  env: NodeJS.ProcessEnv = process.env,
): Promise<FigureNatsServer | NotAvailable> {
  const found = findNatsServer({ env, required: false });
  if (!found.found) return notAvailable(found.reason);
  let server: NatsServerProcess;
  try {
    server = await startNatsServer({ program: found.path });
  } catch (error) {
    return notAvailable(`nats-server did not start: ${(error as Error).message.split('\n')[0]}`);
  }
  return {
    target: (bucketPrefix) => ({ kind: 'nats', servers: server.url, bucketPrefix }),
    close: () => server.close(),
  };
}
