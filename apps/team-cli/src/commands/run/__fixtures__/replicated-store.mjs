// Opens the default Teamkit store on a NATS cluster with three replicas (creating its
// streams on the first call, retrying while the cluster elects its JetStream leader) and
// prints how many replicas each of its streams has: `node replicated-store.mjs <urls>`.
import { createRequire } from 'node:module';
import { createNatsStore } from '@teamkit/store-nats';

const [urls] = process.argv.slice(2);
const servers = urls.split(',');
const deadline = Date.now() + 90_000;
for (;;) {
  try {
    const store = await createNatsStore({ servers, replicas: 3, timeoutMs: 10_000 });
    await store.close();
    break;
  } catch (error) {
    if (Date.now() > deadline) throw error;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}
// The JetStream client of the store package itself: this package does not depend on it.
const require = createRequire(
  createRequire(import.meta.url).resolve('@teamkit/store-nats/package.json'),
);
const { connect } = await import(require.resolve('@nats-io/transport-node'));
const { jetstreamManager } = await import(require.resolve('@nats-io/jetstream'));
const nc = await connect({ servers });
const jsm = await jetstreamManager(nc);
const replicas = {};
for (const name of ['KV_teamkit', 'teamkit-logs'])
  replicas[name] = (await jsm.streams.info(name)).config.num_replicas;
await nc.close();
process.stdout.write(`${JSON.stringify(replicas)}\n`);
