import { fileURLToPath } from 'node:url';
import { type NatsServerProcess, startNatsServer } from '@teamkit/test-harness';
import { runStoreConformance } from '@teamkit/test-harness/store-conformance';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { createNatsStore, type NatsStore } from './index.js';
import { dropNatsStore, natsServerMissing, uniquePrefix } from './test-support/nats-test-server.js';

const missing = natsServerMissing();

if (missing !== undefined) {
  describe('NATS store: store conformance', () => {
    it.skip(`needs nats-server: ${missing}`, () => {});
  });
} else {
  let server: NatsServerProcess | undefined;
  beforeAll(async () => {
    server = await startNatsServer();
  });
  afterAll(async () => {
    await server?.close();
  });
  const url = () => (server as NatsServerProcess).url;

  const opener = fileURLToPath(new URL('./__fixtures__/open-nats-store.mjs', import.meta.url));

  runStoreConformance({
    name: 'NATS store',
    createStore: () => createNatsStore({ servers: url(), bucketPrefix: uniquePrefix() }),
    cleanup: (store) => dropNatsStore(url(), (store as NatsStore).bucketPrefix),
    processes: {
      module: opener,
      config: (store) => ({ servers: url(), bucketPrefix: (store as NatsStore).bucketPrefix }),
    },
  });

  // The same contract with every text over 8 bytes in the object store.
  runStoreConformance({
    name: 'NATS store with large values',
    createStore: () =>
      createNatsStore({ servers: url(), bucketPrefix: uniquePrefix('b'), inlineLimitBytes: 8 }),
    cleanup: (store) => dropNatsStore(url(), (store as NatsStore).bucketPrefix),
    processes: {
      module: opener,
      config: (store) => ({
        servers: url(),
        bucketPrefix: (store as NatsStore).bucketPrefix,
        inlineLimitBytes: 8,
      }),
    },
  });
}
