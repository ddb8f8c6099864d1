import { JetStreamApiError } from '@nats-io/jetstream';
import type { NatsLink } from './nats-link.js';

/** The replica count of each of the store's streams, by stream name. */
export type StreamReplicas = Record<string, number>;

function isStreamNotFound(error: unknown): boolean {
  return error instanceof JetStreamApiError && error.code === 10059;
}

/**
 * Asks the server how many replicas the store's streams have: the KV bucket, the log
 * stream and, once a large text created it, the object store. A store opened with another
 * `replicas` value uses existing streams as they are, so this is what they really have.
 */
export async function readStreamReplicas(link: NatsLink): Promise<StreamReplicas> {
  const { names } = link;
  const streams = [names.bucketStream, names.logStream, `OBJ_${names.blobBucket}`];
  const replicas: StreamReplicas = {};
  for (const stream of streams) {
    const info = await link.call({ what: 'describe', key: `the stream ${stream}` }, async () => {
      try {
        return await link.jsm.streams.info(stream);
      } catch (error) {
        if (isStreamNotFound(error)) return undefined;
        throw error;
      }
    });
    if (info !== undefined) replicas[stream] = info.config.num_replicas;
  }
  return replicas;
}
