import { type LockOptions, readEach, type TeamkitStore } from '@teamkit/team-core/storage';
import { createBlobStore } from './blob-store.js';
import { connectLink, type NatsCredentials, type NatsTlsOptions } from './connect-link.js';
import { prefixFilter } from './key-mapping.js';
import { DEFAULT_LOCK_TIMEOUT_MS, staleMsOf } from './lease.js';
import { createNatsEntries } from './nats-entries.js';
import { createNatsLocks } from './nats-locks.js';
import { createNatsLogs } from './nats-logs.js';
import { createNatsTree } from './nats-tree.js';
import { createNatsValues } from './nats-values.js';
import { createNatsWatches } from './nats-watch.js';
import { readStreamReplicas, type StreamReplicas } from './stream-replicas.js';

/** Options of {@link createNatsStore}. */
export interface NatsStoreOptions {
  /** One server URL or several of one cluster, e.g. `nats://10.0.0.5:4222` or `tls://…`. */
  servers: string | string[];
  /** User and password, a token, an nkey seed or a `.creds` file; none by default. */
  credentials?: NatsCredentials;
  /** TLS files: the CA that signed the server, and a client certificate if it asks for one. */
  tls?: NatsTlsOptions;
  /**
   * Names the store's KV bucket (`<prefix>`), log stream (`<prefix>-logs`, subjects
   * `<prefix>.log.>`) and object store (`<prefix>-blobs`); `teamkit` by default. Stores
   * with different prefixes on one server never see each other.
   */
  bucketPrefix?: string;
  /**
   * Copies of each stream when the store creates them: 1 (default), or 3 or 5 on a cluster.
   * Streams that exist are used as they are, whatever their replicas.
   */
  replicas?: number;
  /**
   * How long one operation keeps trying while the server does not answer (a restart, a
   * lost connection) before it fails with `STORE_UNAVAILABLE`; 15 000 ms by default.
   */
  timeoutMs?: number;
  /** Defaults of `withLock` and of the add slot: stale period and acquisition timeout. */
  lock?: LockOptions;
  /** Texts over this many bytes go to the object store; default: what one message holds. */
  inlineLimitBytes?: number;
  /** The connection's name in the server's monitoring; `teamkit-store` by default. */
  name?: string;
  /** The clock of `changedAt`; `Date.now` by default. */
  now?: () => number;
}

/** A {@link TeamkitStore} on NATS JetStream. */
export interface NatsStore extends TeamkitStore {
  readonly kind: 'nats';
  /** The servers it connects to. */
  readonly servers: string;
  /** The prefix of its bucket and stream names. */
  readonly bucketPrefix: string;
  /** The replicas its streams were to be created with (`replicas` of the options). */
  readonly replicas: number;
  /**
   * How many replicas each of its streams really has, by stream name: streams that existed
   * before it was opened keep theirs, whatever `replicas` says.
   */
  streamReplicas(): Promise<StreamReplicas>;
}

// Room for headers and the subject within the server's largest message.
const HEADROOM_BYTES = 16 * 1024;

/**
 * Opens a {@link TeamkitStore} on NATS JetStream (nats-server 2.9 or newer with `-js`):
 * values and entries are keys of one KV bucket, revisions are stream sequences, every
 * write that must not race is a compare-and-set on them, logs are subjects of a stream,
 * and texts too large for a message live in an object store. Creates the bucket and the
 * stream if they do not exist. Several processes and machines may open the same store;
 * see docs/distributed.md for the layout, the guarantees and how to run NATS for it.
 */
export async function createNatsStore(options: NatsStoreOptions): Promise<NatsStore> {
  const now = options.now ?? Date.now;
  const bucketPrefix = options.bucketPrefix ?? 'teamkit';
  const link = await connectLink({
    servers: options.servers,
    credentials: options.credentials,
    tls: options.tls,
    bucketPrefix,
    replicas: options.replicas ?? 1,
    timeoutMs: options.timeoutMs ?? 15_000,
    name: options.name,
  });
  const maxPayload = link.nc.info?.max_payload ?? 1_048_576;
  const inlineLimit = Math.max(
    0,
    Math.min(options.inlineLimitBytes ?? Number.POSITIVE_INFINITY, maxPayload - HEADROOM_BYTES),
  );
  const lockDefaults = options.lock ?? {};
  const blobs = createBlobStore(link);
  const values = createNatsValues(link, blobs, inlineLimit);
  const entries = createNatsEntries(link, blobs, inlineLimit, {
    staleMs: staleMsOf(lockDefaults.staleMs),
    timeoutMs: lockDefaults.timeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS,
    now,
  });
  const logs = createNatsLogs(link);
  const locks = createNatsLocks(link, lockDefaults);
  const tree = createNatsTree(link, blobs);
  const watches = createNatsWatches(link);

  return {
    kind: 'nats',
    servers: link.servers,
    bucketPrefix,
    replicas: link.replicas,
    streamReplicas: () => readStreamReplicas(link),
    read: values.read,
    // One request per key, as the task list read them before `readMany` existed.
    readMany: (keys) => readEach(values.read, keys),
    create: values.create,
    update: values.update,
    put: values.put,
    remove: values.remove,
    removeTree: tree.removeTree,
    list: tree.list,
    stat: tree.stat,
    claimMarker: values.claimMarker,
    removeStaleTemporaries: tree.removeStaleTemporaries,
    addEntry: entries.addEntry,
    moveEntries: entries.moveEntries,
    listEntries: entries.listEntries,
    readEntry: entries.readEntry,
    entryState: entries.entryState,
    watchEntries: watches.watchEntries,
    append: logs.append,
    readLog: logs.readLog,
    withLock: locks.withLock,
    async watch(prefix, onChange, watchOptions) {
      prefixFilter(prefix);
      return watches.watch(prefix, onChange, watchOptions);
    },
    async close() {
      await watches.closeAll();
      await entries.flush().catch(() => {});
      await link.close();
    },
  };
}
