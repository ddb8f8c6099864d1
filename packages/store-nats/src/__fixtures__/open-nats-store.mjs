// Opens the NATS store in a worker process of the store conformance suite and of the
// failure tests.
import { createNatsStore } from '@teamkit/store-nats';

export function openStore({ servers, bucketPrefix, timeoutMs, staleMs, inlineLimitBytes }) {
  return createNatsStore({
    servers,
    bucketPrefix,
    timeoutMs: timeoutMs ?? 15_000,
    ...(staleMs === undefined ? {} : { lock: { staleMs } }),
    ...(inlineLimitBytes === undefined ? {} : { inlineLimitBytes }),
  });
}
