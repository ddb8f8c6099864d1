import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { JetStreamClient, JetStreamManager, StoredMsg } from '@nats-io/jetstream';
import { type MsgHdrs, type NatsConnection, headers as natsHeaders } from '@nats-io/transport-node';
import type { NatsNames } from './key-mapping.js';
import {
  isTransient,
  isWrongLastSequence,
  type OperationContext,
  toStoreError,
  unavailable,
} from './nats-errors.js';

/** What an operation is, for error messages: a verb and the Teamkit key it concerns. */
export interface Operation {
  what: string;
  key: string;
}

/** Options of {@link NatsLink.publish}. */
export interface PublishOptions {
  headers?: Record<string, string>;
  /** Compare-and-set: the subject's last sequence must be this (0: the subject is empty). */
  expectSeq?: number;
}

/** The header that marks a KV delete (a tombstone), as the KV clients write it. */
export const KV_OPERATION_HEADER = 'KV-Operation';

/**
 * One open connection and the JetStream handles of one store, with the two rules every
 * call follows: transient failures (timeouts, a restarting server) are retried until the
 * store's deadline and then become `STORE_UNAVAILABLE`; every publish carries a fresh
 * `Nats-Msg-Id`, so a retry of a publish whose answer was lost is recognised by the
 * server as the same message and never applied twice.
 */
export interface NatsLink {
  readonly nc: NatsConnection;
  readonly js: JetStreamClient;
  readonly jsm: JetStreamManager;
  readonly names: NatsNames;
  /** The servers, for messages. */
  readonly servers: string;
  readonly timeoutMs: number;
  readonly replicas: number;
  /** The full subject of a KV key. */
  kvSubject(kvKey: string): string;
  /** Runs `fn` with retries of transient failures until the deadline; maps every error. */
  call<T>(operation: Operation, fn: (timeoutMs: number) => Promise<T>): Promise<T>;
  /** The last message of a subject of the bucket or log stream; `undefined` when there is none. */
  getLast(
    stream: 'bucket' | 'log',
    subject: string,
    operation: Operation,
  ): Promise<StoredMsg | undefined>;
  /** Publishes once (idempotent retries); `undefined` when `expectSeq` did not hold. */
  publish(
    subject: string,
    data: Uint8Array,
    options: PublishOptions,
    operation: Operation,
  ): Promise<number | undefined>;
  /** Keeps background work (settling an entry's ledger) until `close` waits for it. */
  track(work: Promise<unknown>): void;
  /** Waits for background work, then closes the connection. */
  close(): Promise<void>;
  readonly closed: boolean;
}

/** What {@link createNatsLink} needs: an open connection and its handles. */
export interface NatsLinkParts {
  nc: NatsConnection;
  js: JetStreamClient;
  jsm: JetStreamManager;
  names: NatsNames;
  servers: string;
  timeoutMs: number;
  replicas: number;
}

/** The time one attempt may take: a third of the deadline, between 0.5 and 2 s. */
export function attemptTimeoutOf(timeoutMs: number): number {
  return Math.max(500, Math.min(2_000, Math.floor(timeoutMs / 3)));
}

/** An attempt abandoned because the connection dropped while it waited for its answer. */
class ConnectionDropped extends Error {
  constructor() {
    super('the connection to the server dropped');
    this.name = 'ConnectionDropped';
  }
}

function toHeaders(record: Record<string, string> | undefined): MsgHdrs | undefined {
  if (record === undefined) return undefined;
  const result = natsHeaders();
  for (const [name, value] of Object.entries(record)) result.set(name, value);
  return result;
}

/** Wraps an open connection in the store's call discipline. */
export function createNatsLink(parts: NatsLinkParts): NatsLink {
  const background = new Set<Promise<unknown>>();
  let closed = false;
  const attemptMs = attemptTimeoutOf(parts.timeoutMs);
  // A request in flight when the connection drops never gets its answer; rather than wait
  // for its timeout, every attempt then in flight is abandoned and retried (publishes are
  // recognised by their message id, so a retry never applies twice).
  let dropped: { promise: Promise<never>; fire(): void } = nextDrop();
  function nextDrop() {
    let fire: () => void = () => {};
    const promise = new Promise<never>((_, reject) => {
      fire = () => reject(new ConnectionDropped());
    });
    promise.catch(() => {});
    return { promise, fire };
  }
  void (async () => {
    for await (const status of parts.nc.status()) {
      if (status.type === 'disconnect' || status.type === 'staleConnection') {
        const current = dropped;
        dropped = nextDrop();
        current.fire();
      }
    }
  })().catch(() => {});

  function context(operation: Operation): OperationContext {
    return { ...operation, servers: parts.servers, timeoutMs: parts.timeoutMs };
  }

  async function call<T>(operation: Operation, fn: (timeoutMs: number) => Promise<T>): Promise<T> {
    const deadline = Date.now() + parts.timeoutMs;
    let wait = 25;
    for (;;) {
      const remaining = deadline - Date.now();
      try {
        return await Promise.race([
          fn(Math.max(100, Math.min(attemptMs, remaining))),
          dropped.promise,
        ]);
      } catch (error) {
        const connectionDropped = error instanceof ConnectionDropped;
        if (closed || (!connectionDropped && !isTransient(error))) {
          throw toStoreError(error, context(operation));
        }
        if (connectionDropped && Date.now() < deadline) continue;
        if (Date.now() + wait >= deadline) throw unavailable(context(operation), error);
        await delay(wait);
        wait = Math.min(wait * 2, 500);
      }
    }
  }

  const link: NatsLink = {
    ...parts,
    kvSubject: (kvKey) => `$KV.${parts.names.bucket}.${kvKey}`,
    call,
    getLast(stream, subject, operation) {
      const name = stream === 'bucket' ? parts.names.bucketStream : parts.names.logStream;
      return call(operation, async () => {
        const message = await parts.jsm.streams.getMessage(name, { last_by_subj: subject });
        return message ?? undefined;
      });
    },
    publish(subject, data, options, operation) {
      const msgID = randomUUID();
      const headers = toHeaders(options.headers);
      const expect =
        options.expectSeq === undefined ? undefined : { lastSubjectSequence: options.expectSeq };
      return call(operation, async (timeout) => {
        try {
          const ack = await parts.js.publish(subject, data, { msgID, headers, expect, timeout });
          return ack.seq;
        } catch (error) {
          if (isWrongLastSequence(error)) return undefined;
          throw error;
        }
      });
    },
    track(work) {
      const settled = work.then(
        () => {},
        () => {},
      );
      background.add(settled);
      void settled.then(() => background.delete(settled));
    },
    async close() {
      if (closed) return;
      // An unreferenced timer: once the background work is done it keeps nothing alive.
      await Promise.race([
        Promise.all([...background]),
        delay(parts.timeoutMs, undefined, { ref: false }),
      ]);
      closed = true;
      await parts.nc.close();
    },
    get closed() {
      return closed;
    },
  };
  return link;
}
