import { DeliverPolicy, type JsMsg } from '@nats-io/jetstream';
import { type MsgHdrs, headers as natsHeaders, TimeoutError } from '@nats-io/transport-node';
import type { NatsLink, Operation } from './nats-link.js';
import { MESSAGE_SIZE_HEADER } from './stored-record.js';

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
  /**
   * The last message of each subject (a KV listing), or every message from `startSeq` up to
   * `endSeq` (the last sequence the caller saw; the scan may pass it, never stops short).
   */
  from: 'last-per-subject' | { startSeq: number; endSeq: number };
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
 * Where a scan ends, fixed before it starts: the stream's last sequence then and, for a
 * listing, every subject the filter matched then. Writes that keep coming while the scan
 * runs (heartbeats, lock beats) never move it, so a busy stream cannot keep a scan going.
 */
interface ScanEnd {
  lastSeq: number;
  /** The subjects a `last-per-subject` scan must report (empty for a scan by sequence). */
  subjects: Set<string>;
}

async function scanEnd(link: NatsLink, streamName: string, options: ScanOptions): Promise<ScanEnd> {
  if (options.from !== 'last-per-subject') {
    return { lastSeq: options.from.endSeq, subjects: new Set() };
  }
  const info = await link.jsm.streams.info(streamName, { subjects_filter: options.filter });
  return {
    lastSeq: info.state.last_seq,
    subjects: new Set(Object.keys(info.state.subjects ?? {})),
  };
}

/**
 * The last message of each subject a listing did not meet on its way: a key rewritten
 * while the scan ran moved past where the scan stopped. Read one by one, as they are now.
 */
async function lastOfEach(
  link: NatsLink,
  streamName: string,
  subjects: Iterable<string>,
  headersOnly: boolean,
): Promise<ScannedMessage[]> {
  const found: ScannedMessage[] = [];
  for (const subject of subjects) {
    const message = await link.jsm.streams.getMessage(streamName, { last_by_subj: subject });
    if (message === null) continue; // purged meanwhile: gone
    let header = message.header;
    if (headersOnly) {
      // As a headers-only scan reports it: no body, its size in a header.
      header = natsHeaders();
      for (const name of message.header?.keys() ?? []) {
        for (const value of message.header?.values(name) ?? []) header.append(name, value);
      }
      header.set(MESSAGE_SIZE_HEADER, String(message.data.length));
    }
    found.push({
      subject: message.subject,
      seq: message.seq,
      header,
      data: headersOnly ? new Uint8Array(0) : message.data,
      time: message.time.getTime(),
    });
  }
  return found;
}

/** One message per subject, the newest: a key rewritten while it was listed shows once, as it is now. */
function newestPerSubject(messages: readonly ScannedMessage[]): ScannedMessage[] {
  const newest = new Map<string, ScannedMessage>();
  for (const message of messages) {
    const known = newest.get(message.subject);
    if (known === undefined || known.seq < message.seq) newest.set(message.subject, message);
  }
  return [...newest.values()].sort((a, b) => a.seq - b.seq);
}

/**
 * Reads the messages of a stream that match a filter through an ordered push consumer
 * (which re-creates itself after a gap or a reconnect) and deletes the consumer when done.
 * The scan ends where the stream was when it started ({@link ScanEnd}): at the first
 * message past the stream's last sequence then, once every subject a listing matched then
 * was met, or when the consumer reports nothing more pending; or when `enough` says so. A
 * listing then reads the subjects it did not meet (rewritten meanwhile) one by one, and
 * reports each subject once, its newest message. No message for one attempt's time ends a
 * listing the same way; it fails a scan by sequence as a timeout (retried whole).
 */
export function scanStream(link: NatsLink, options: ScanOptions): Promise<ScannedMessage[]> {
  const streamName = options.stream === 'bucket' ? link.names.bucketStream : link.names.logStream;
  const { from } = options;
  const listing = from === 'last-per-subject';
  return link.call(options.operation, async (timeoutMs) => {
    const end = await scanEnd(link, streamName, options);
    if (listing && end.subjects.size === 0) return [];
    const consumer = await link.js.consumers.getPushConsumer(streamName, {
      filter_subjects: options.filter,
      headers_only: options.headersOnly,
      ...(from === 'last-per-subject'
        ? { deliver_policy: DeliverPolicy.LastPerSubject }
        : { opt_start_seq: from.startSeq }),
    });
    const collected: ScannedMessage[] = [];
    const unmet = new Set(end.subjects);
    let satisfied = false;
    try {
      if ((await consumer.info(true)).num_pending > 0) {
        await new Promise<void>((resolve, reject) => {
          let stall: NodeJS.Timeout | undefined;
          let finished = false;
          const messages = consumer.consume({
            callback(message) {
              if (finished) return;
              collected.push(scannedOf(message));
              unmet.delete(message.subject);
              restartStall();
              satisfied = options.enough?.(collected) === true;
              if (
                satisfied ||
                message.info.pending === 0 ||
                message.info.streamSequence >= end.lastSeq ||
                (listing && unmet.size === 0)
              ) {
                finish();
              }
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
            // A listing knows what it still lacks and reads it one by one; a scan by
            // sequence cannot tell, and fails the attempt.
            stall = setTimeout(() => finish(listing ? undefined : new TimeoutError()), timeoutMs);
          }
          messages.catch(finish);
          restartStall();
        });
      }
    } finally {
      void consumer.delete().catch(() => {});
    }
    if (!listing) return collected;
    const found =
      satisfied || unmet.size === 0
        ? collected
        : [...collected, ...(await lastOfEach(link, streamName, unmet, options.headersOnly))];
    return newestPerSubject(found);
  });
}
