import { DeliverPolicy, type JsMsg } from '@nats-io/jetstream';
import { type MsgHdrs, TimeoutError } from '@nats-io/transport-node';
import type { NatsLink, Operation } from './nats-link.js';

/** One message a scan delivered. */
export interface ScannedMessage {
  subject: string;
  seq: number;
  header: MsgHdrs | undefined;
  /** Empty in a headers-only scan; the size is then in the `Nats-Msg-Size` header. */
  data: Uint8Array;
  /** When the server stored it (epoch ms). */
  time: number;
}

/** What {@link scanStream} reads. */
export interface ScanOptions {
  stream: 'bucket' | 'log';
  /** A subject filter (wildcards allowed). */
  filter: string;
  /** The last message of each subject (a KV listing), or every message from a sequence on. */
  from: 'last-per-subject' | { startSeq: number };
  headersOnly: boolean;
  /** Stops the scan early once it returns true for what was collected so far. */
  enough?: (collected: readonly ScannedMessage[]) => boolean;
  operation: Operation;
}

function scannedOf(message: JsMsg): ScannedMessage {
  return {
    subject: message.subject,
    seq: message.info.streamSequence,
    header: message.headers,
    data: message.data,
    time: message.time.getTime(),
  };
}

/**
 * Reads the messages of a stream that match a filter through an ordered push consumer
 * (which re-creates itself after a gap or a reconnect) and deletes the consumer when done.
 * It stops when the consumer reports nothing more pending, when `enough` says so, or fails
 * as a timeout when no message came for one attempt's time (then the scan is retried whole).
 */
export function scanStream(link: NatsLink, options: ScanOptions): Promise<ScannedMessage[]> {
  const streamName = options.stream === 'bucket' ? link.names.bucketStream : link.names.logStream;
  return link.call(options.operation, async (timeoutMs) => {
    const consumer = await link.js.consumers.getPushConsumer(streamName, {
      filter_subjects: options.filter,
      headers_only: options.headersOnly,
      ...(options.from === 'last-per-subject'
        ? { deliver_policy: DeliverPolicy.LastPerSubject }
        : { opt_start_seq: options.from.startSeq }),
    });
    const collected: ScannedMessage[] = [];
    try {
      if ((await consumer.info(true)).num_pending === 0) return collected;
      await new Promise<void>((resolve, reject) => {
        let stall: NodeJS.Timeout | undefined;
        let finished = false;
        const messages = consumer.consume({
          callback(message) {
            if (finished) return;
            collected.push(scannedOf(message));
            restartStall();
            if (message.info.pending === 0 || options.enough?.(collected) === true) finish();
          },
        });
        function finish(error?: unknown): void {
          if (finished) return;
          finished = true;
          clearTimeout(stall);
          void messages.then((iterator) => iterator.stop()).catch(() => {});
          if (error === undefined) resolve();
          else reject(error);
        }
        function restartStall(): void {
          clearTimeout(stall);
          stall = setTimeout(() => finish(new TimeoutError()), timeoutMs);
        }
        messages.catch(finish);
        restartStall();
      });
      return collected;
    } finally {
      void consumer.delete().catch(() => {});
    }
  });
}
