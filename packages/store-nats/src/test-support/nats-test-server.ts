import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { findNatsServer } from '@teamkit/test-harness';

/**
 * Why the NATS tests cannot run here, or `undefined` when nats-server is installed. With
 * `TEAMKIT_TEST_REQUIRE_PROGRAMS=1` (CI) a missing server throws instead of skipping.
 */
export function natsServerMissing(): string | undefined {
  const found = findNatsServer();
  if (found.found) return undefined;
  process.stderr.write(`skipping NATS store tests: ${found.reason}\n`);
  return found.reason;
}

let stores = 0;

/** A bucket prefix no other store of this test run uses. */
export function uniquePrefix(label = 't'): string {
  stores += 1;
  return `${label}${process.pid}-${stores}`;
}

/** Deletes the streams of the store with `bucketPrefix` (a test's cleanup). */
export async function dropNatsStore(servers: string, bucketPrefix: string): Promise<void> {
  const nc = await connect({ servers, reconnect: false });
  try {
    const jsm = await jetstreamManager(nc);
    for (const name of [
      `KV_${bucketPrefix}`,
      `${bucketPrefix}-logs`,
      `OBJ_${bucketPrefix}-blobs`,
    ]) {
      await jsm.streams.delete(name).catch(() => false);
    }
  } finally {
    await nc.close();
  }
}
