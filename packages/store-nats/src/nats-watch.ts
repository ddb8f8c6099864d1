import { setTimeout as delay } from 'node:timers/promises';
import { DeliverPolicy } from '@nats-io/jetstream';
import {
  createChangeBatcher,
  reportWatchError,
  type StoreChange,
  type StoreWatchOptions,
} from '@teamkit/team-core/storage';
import {
  decodeKvKey,
  decodeLogSubject,
  entryFilter,
  prefixFilter,
  valueKey,
} from './key-mapping.js';
import type { NatsLink } from './nats-link.js';
import { HEADERS, isTombstone } from './stored-record.js';
import { scanStream } from './stream-scan.js';

const BATCH_DELAY_MS = 15;
const RESTART_DELAY_MS = 500;

/** One change a key follower saw: the KV key, whether it was a delete, its entry state. */
interface KeyEvent {
  kvKey: string;
  deleted: boolean;
  /** The `Teamkit-State` header of an entry message. */
  state: string | undefined;
}

/**
 * Follows the KV keys matching a filter from now on with a headers-only ordered push
 * consumer (which picks up where it was after a gap or a reconnect), and starts it again
 * if it ever ends, until `stop` is called.
 */
function followKeys(
  link: NatsLink,
  filter: string,
  onKey: (event: KeyEvent) => void,
  options: StoreWatchOptions,
): { ready: Promise<void>; stop(): void } {
  let stopped = false;
  let current: { stop(): void } | undefined;
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  const prefix = `$KV.${link.names.bucket}.`;
  async function run(): Promise<void> {
    while (!stopped) {
      try {
        const consumer = await link.js.consumers.getPushConsumer(link.names.bucketStream, {
          filter_subjects: `${prefix}${filter}`,
          deliver_policy: DeliverPolicy.New,
          headers_only: true,
        });
        const messages = await consumer.consume({
          callback(message) {
            if (stopped) return;
            onKey({
              kvKey: message.subject.slice(prefix.length),
              deleted: isTombstone({ header: message.headers }),
              state: message.headers?.get(HEADERS.state) || undefined,
            });
          },
        });
        current = {
          stop() {
            messages.stop();
            void consumer.delete().catch(() => {});
          },
        };
        markReady();
        if (stopped) current.stop();
        await messages.closed();
      } catch (error) {
        if (!stopped && !link.closed) reportWatchError(options.onError, error);
      }
      markReady();
      if (stopped || link.closed) return;
      await delay(RESTART_DELAY_MS);
    }
  }
  void run();
  return {
    ready,
    stop() {
      stopped = true;
      current?.stop();
    },
  };
}

/**
 * Watches of the NATS store. A prefix watch reports value keys (`put`, `delete`), logs
 * (`put` when a line is appended) and collections (`unknown` when one of their entries
 * changed: list them to know); locks and ledgers are never reported. Each is backed by a
 * timed comparison of everything under the prefix, skipped while the streams' sequence
 * numbers show no change, which also catches trees removed by purging (no event).
 */
export function createNatsWatches(link: NatsLink) {
  const disposers = new Set<() => Promise<void>>();

  function track(dispose: () => void): () => Promise<void> {
    const once = async () => {
      if (!disposers.delete(once)) return;
      dispose();
    };
    disposers.add(once);
    return once;
  }

  function reportOf(kvKey: string, deleted: boolean): StoreChange | undefined {
    const decoded = decodeKvKey(kvKey);
    if (decoded.kind === 'value') return { key: decoded.key, kind: deleted ? 'delete' : 'put' };
    if (decoded.kind === 'entry') return { key: decoded.collection, kind: 'unknown' };
    return undefined;
  }

  /** Everything under a prefix: KV keys to their revisions, logs to their line counts. */
  async function snapshot(prefix: string, filter: string): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    const bucketPrefix = `$KV.${link.names.bucket}.`;
    const messages = await scanStream(link, {
      stream: 'bucket',
      filter: `${bucketPrefix}${filter}`,
      from: 'last-per-subject',
      headersOnly: true,
      operation: { what: 'watch', key: prefix || 'the store' },
    });
    for (const message of messages) {
      if (isTombstone({ header: message.header })) continue;
      found.set(`kv:${message.subject.slice(bucketPrefix.length)}`, String(message.seq));
    }
    const info = await link.call({ what: 'watch', key: prefix || 'the store' }, () =>
      link.jsm.streams.info(link.names.logStream, {
        subjects_filter: `${link.names.logSubjectPrefix}.${filter}`,
      }),
    );
    for (const [subject, count] of Object.entries(info.state.subjects ?? {})) {
      found.set(`log:${subject}`, String(count));
    }
    return found;
  }

  async function streamsSignature(): Promise<string> {
    const [bucket, logs] = await Promise.all(
      [link.names.bucketStream, link.names.logStream].map((name) =>
        link.call({ what: 'watch', key: name }, () => link.jsm.streams.info(name)),
      ),
    );
    return [bucket, logs]
      .map((info) => `${info?.state.last_seq}:${info?.state.messages}:${info?.state.num_deleted}`)
      .join('/');
  }

  async function watch(
    prefix: string,
    onChange: (changes: StoreChange[]) => void,
    options: StoreWatchOptions = {},
  ): Promise<() => Promise<void>> {
    const filter = prefixFilter(prefix);
    let closed = false;
    const batcher = createChangeBatcher<StoreChange>({
      delayMs: BATCH_DELAY_MS,
      keyOf: (change) => change.key,
      // "Something in this collection changed" outweighs any one key's news.
      merge: (earlier, later) => (earlier.kind === 'unknown' ? earlier : later),
      deliver: onChange,
      onError: options.onError,
    });
    function note(change: StoreChange | undefined): void {
      if (!closed && change !== undefined) batcher.add(change);
    }

    let known = await snapshot(prefix, filter);
    let signature = await streamsSignature();
    const keys = followKeys(
      link,
      filter,
      // A staged entry is not there yet: its add reports when it is published.
      (event) => {
        if (event.state !== 'staged') note(reportOf(event.kvKey, event.deleted));
      },
      options,
    );
    const logSubscription = link.nc.subscribe(`${link.names.logSubjectPrefix}.${filter}`, {
      callback: (_error, message) => {
        const key = decodeLogSubject(link.names, message.subject);
        if (key !== undefined) note({ key, kind: 'put' });
      },
    });
    await keys.ready;

    let comparing = false;
    const timer = setInterval(() => {
      if (comparing || closed) return;
      comparing = true;
      void (async () => {
        const now = await streamsSignature();
        if (now === signature) return;
        const fresh = await snapshot(prefix, filter);
        signature = now;
        for (const [id, version] of fresh) {
          if (known.get(id) === version) continue;
          if (id.startsWith('log:'))
            note({ key: decodeLogSubject(link.names, id.slice(4)) ?? '', kind: 'put' });
          else note(reportOf(id.slice(3), false));
        }
        for (const id of known.keys()) {
          if (fresh.has(id)) continue;
          if (id.startsWith('log:'))
            note({ key: decodeLogSubject(link.names, id.slice(4)) ?? '', kind: 'delete' });
          else note(reportOf(id.slice(3), true));
        }
        known = fresh;
      })()
        .catch((error: unknown) => {
          if (!closed) reportWatchError(options.onError, error);
        })
        .finally(() => {
          comparing = false;
        });
    }, options.reconcileIntervalMs ?? 2_000);

    return track(() => {
      closed = true;
      clearInterval(timer);
      batcher.stop();
      keys.stop();
      try {
        logSubscription.unsubscribe();
      } catch {
        // Closed with the connection already.
      }
    });
  }

  async function watchEntries(
    collection: string,
    onChange: (ids: string[] | 'all') => void,
    options: StoreWatchOptions = {},
  ): Promise<() => Promise<void>> {
    const filter = entryFilter(valueKey(collection, 'collection'));
    let closed = false;
    const batcher = createChangeBatcher<string>({
      delayMs: 0,
      keyOf: (id) => id,
      deliver: onChange,
      onError: options.onError,
    });
    const call = (ids: 'all') => {
      if (closed) return;
      try {
        onChange(ids);
      } catch (error) {
        reportWatchError(options.onError, error);
      }
    };
    const keys = followKeys(
      link,
      filter,
      (event) => {
        const decoded = decodeKvKey(event.kvKey);
        if (decoded.kind !== 'entry' || event.state === 'staged' || closed) return;
        batcher.add(decoded.id);
      },
      options,
    );
    await keys.ready;
    const timer = setInterval(() => call('all'), options.reconcileIntervalMs ?? 1_000);
    return track(() => {
      closed = true;
      clearInterval(timer);
      batcher.stop();
      keys.stop();
    });
  }

  return {
    watch,
    watchEntries,
    async closeAll(): Promise<void> {
      await Promise.all([...disposers].map((dispose) => dispose()));
    },
  };
}
