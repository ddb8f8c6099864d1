import { readFile } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import {
  DiscardPolicy,
  JetStreamApiError,
  type JetStreamClient,
  type JetStreamManager,
  jetstream,
  jetstreamManager,
  RetentionPolicy,
  StorageType,
} from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import {
  connect,
  credsAuthenticator,
  type NodeConnectionOptions,
  nkeyAuthenticator,
} from '@nats-io/transport-node';
import { TeamkitError } from '@teamkit/team-core';
import { type NatsNames, natsNames } from './key-mapping.js';
import { isTransient, toStoreError } from './nats-errors.js';
import { attemptTimeoutOf, createNatsLink, type NatsLink } from './nats-link.js';

/** How the store proves who it is to the NATS server; see docs/distributed.md. */
export type NatsCredentials =
  | { user: string; pass: string }
  | { token: string }
  /** An nkey user seed (`SU...`); the server knows the public key. */
  | { nkeySeed: string }
  /** A `.creds` file (a user JWT and its nkey seed), for servers with decentralised auth. */
  | { credsFile: string };

/** TLS to the server: its CA, and a client certificate when the server asks for one. */
export interface NatsTlsOptions {
  caFile?: string;
  certFile?: string;
  keyFile?: string;
}

/** What {@link connectLink} needs. */
export interface ConnectLinkOptions {
  servers: string | string[];
  credentials?: NatsCredentials;
  tls?: NatsTlsOptions;
  bucketPrefix: string;
  replicas: number;
  timeoutMs: number;
  name?: string;
}

async function authOptions(
  credentials: NatsCredentials | undefined,
): Promise<Partial<NodeConnectionOptions>> {
  if (credentials === undefined) return {};
  if ('user' in credentials) return { user: credentials.user, pass: credentials.pass };
  if ('token' in credentials) return { token: credentials.token };
  if ('nkeySeed' in credentials) {
    return { authenticator: nkeyAuthenticator(new TextEncoder().encode(credentials.nkeySeed)) };
  }
  if ('credsFile' in credentials) {
    let creds: Buffer;
    try {
      creds = await readFile(credentials.credsFile);
    } catch (error) {
      throw new TeamkitError(
        'INVALID_INPUT',
        `Could not read the NATS credentials file ${credentials.credsFile} (${(error as Error).message}).`,
        { cause: error, details: { credsFile: credentials.credsFile } },
      );
    }
    return { authenticator: credsAuthenticator(new Uint8Array(creds)) };
  }
  throw new TeamkitError(
    'INVALID_INPUT',
    'NATS credentials are { user, pass }, { token }, { nkeySeed } or { credsFile }.',
  );
}

function checkReplicas(replicas: number): void {
  if (![1, 3, 5].includes(replicas)) {
    throw new TeamkitError(
      'INVALID_INPUT',
      `replicas must be 1, 3 or 5 (got ${JSON.stringify(replicas)}); use 3 on a three-node cluster.`,
      { details: { replicas: String(replicas) } },
    );
  }
}

/**
 * Connects to NATS, then makes sure the store's KV bucket and log stream exist (file
 * storage, `replicas` copies; creating them again with the same settings is harmless, so
 * processes may open the same store at once). Reconnects forever once connected; pings
 * every 5 s so a dead connection is noticed within seconds.
 */
export async function connectLink(options: ConnectLinkOptions): Promise<NatsLink> {
  const names = natsNames(options.bucketPrefix);
  checkReplicas(options.replicas);
  const servers = Array.isArray(options.servers) ? options.servers.join(',') : options.servers;
  const operation = { what: 'connect to', key: `the NATS store ${names.bucket}` };
  const context = { ...operation, servers, timeoutMs: options.timeoutMs };
  const attemptMs = attemptTimeoutOf(options.timeoutMs);
  const auth = await authOptions(options.credentials);
  // One deadline for the whole open: connecting and setting up the streams share it.
  const deadline = Date.now() + options.timeoutMs;
  let nc: Awaited<ReturnType<typeof connect>>;
  try {
    // The client tries the servers in a random order: the first one may be a node that is
    // down, so the connection is retried (the next try picks another) until the deadline.
    nc = await untilAnswered(deadline, () =>
      connect({
        servers: options.servers,
        name: options.name ?? 'teamkit-store',
        ...auth,
        ...(options.tls === undefined ? {} : { tls: { ...options.tls } }),
        timeout: Math.max(attemptMs, deadline - Date.now()),
        maxReconnectAttempts: -1,
        reconnectTimeWait: 250,
        reconnectJitter: 100,
        pingInterval: 5_000,
        maxPingOut: 2,
      }),
    );
  } catch (error) {
    throw toStoreError(error, context);
  }
  try {
    const js = jetstream(nc, { timeout: attemptMs });
    // `jetstreamManager` asks the server for the account's JetStream info: that request too
    // times out while the cluster elects a new meta leader, so it is retried with the rest.
    const jsm = await untilAnswered(deadline, async () => {
      const manager = await jetstreamManager(nc, { timeout: attemptMs });
      await ensureStreams(js, manager, names, options.replicas);
      return manager;
    });
    return createNatsLink({
      nc,
      js,
      jsm,
      names,
      servers,
      timeoutMs: options.timeoutMs,
      replicas: options.replicas,
    });
  } catch (error) {
    await nc.close().catch(() => {});
    throw toStoreError(error, context);
  }
}

/**
 * Retries `setUp` while the servers do not answer (a node that is down, a cluster electing
 * a new leader for the store's streams after a node died, JetStream still starting) until
 * `deadline` (epoch ms).
 */
async function untilAnswered<T>(deadline: number, setUp: () => Promise<T>): Promise<T> {
  let wait = 100;
  for (;;) {
    try {
      return await setUp();
    } catch (error) {
      // "Already in use with a different configuration": the streams exist (with other
      // replicas) but JetStream could not say so while it elected a leader; look again.
      const inUse = error instanceof JetStreamApiError && error.code === 10058;
      if (!(isTransient(error) || inUse) || Date.now() + wait >= deadline) throw error;
      await delay(wait);
      wait = Math.min(wait * 2, 1_000);
    }
  }
}

/** Creates the KV bucket and the log stream unless they exist. */
async function ensureStreams(
  js: JetStreamClient,
  jsm: JetStreamManager,
  names: NatsNames,
  replicas: number,
): Promise<void> {
  await new Kvm(js).create(names.bucket, {
    history: 1,
    storage: StorageType.File,
    replicas,
    allow_direct: false,
    description: 'Teamkit store: values, entries, ledgers and locks',
  });
  try {
    await jsm.streams.info(names.logStream);
  } catch {
    await jsm.streams
      .add({
        name: names.logStream,
        subjects: [`${names.logSubjectPrefix}.>`],
        storage: StorageType.File,
        retention: RetentionPolicy.Limits,
        discard: DiscardPolicy.Old,
        num_replicas: replicas,
        allow_direct: false,
        description: 'Teamkit store: append-only logs, one subject per log',
      })
      .catch(async (error: unknown) => {
        // Another process created it first.
        await jsm.streams.info(names.logStream).catch(() => {
          throw error;
        });
      });
  }
}
