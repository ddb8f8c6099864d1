import { TeamkitError } from '@teamkit/team-core';
import { storeKeySegments } from '@teamkit/team-core/storage';

/**
 * How Teamkit keys map onto NATS. A NATS KV key is a subject: `.` separates its tokens and
 * only `A-Z a-z 0-9 - _ / = .` are allowed. A Teamkit key is `/`-separated segments of
 * `A-Z a-z 0-9 . _ -`. So `/` becomes the token separator `.`, and a `.` inside a segment
 * becomes `=` (which no segment contains, so the mapping is one to one and prefixes stay
 * subject prefixes: `runtime/r1/state.json` is `runtime.r1.state=json`, and everything
 * under `runtime/r1` matches `runtime.r1.>`). The store's own tokens start with `/`,
 * which no segment contains either: `<collection>./entry.<id>`, `<collection>./ledger`,
 * `/lock.<key>`.
 */

/** The token that holds a collection's entries: `<collection>./entry.<id>`. */
export const ENTRY_TOKEN = '/entry';
/** The token of a collection's ledger: `<collection>./ledger`. */
export const LEDGER_TOKEN = '/ledger';
/** The first token of every lock key: `/lock.<key>`. */
export const LOCK_TOKEN = '/lock';

// The protocol's control line (HPUB subject reply sizes) is 4 096 bytes by default.
const MAX_SUBJECT_BYTES = 3_000;

/** The token of one key segment. */
export function encodeSegment(segment: string): string {
  return segment.replaceAll('.', '=');
}

/** The key segment of one token. */
export function decodeToken(token: string): string {
  return token.replaceAll('=', '.');
}

/** Whether a token is one of the store's own (never a Teamkit name). */
export function isInternalToken(token: string): boolean {
  return token.startsWith('/');
}

function checkedLength(subject: string, key: string): string {
  if (Buffer.byteLength(subject) > MAX_SUBJECT_BYTES) {
    throw new TeamkitError(
      'INVALID_INPUT',
      `The key ${key} is too long for the NATS store (its subject would pass ${MAX_SUBJECT_BYTES} bytes); use shorter names.`,
      { details: { key } },
    );
  }
  return subject;
}

/** The NATS names of one store: its KV bucket, its log stream and its object store. */
export interface NatsNames {
  /** The KV bucket of values, entries, ledgers and locks. */
  bucket: string;
  /** The stream behind the KV bucket. */
  bucketStream: string;
  /** The stream that holds every log, one subject per log key. */
  logStream: string;
  /** The first tokens of every log subject: `<bucket>.log`. */
  logSubjectPrefix: string;
  /** The object store of values too large for a KV message. */
  blobBucket: string;
}

const BUCKET_PREFIX = /^[A-Za-z0-9_-]{1,48}$/;

/** The names under `bucketPrefix` (letters, digits, `_` and `-`; `INVALID_INPUT` otherwise). */
export function natsNames(bucketPrefix: string): NatsNames {
  if (typeof bucketPrefix !== 'string' || !BUCKET_PREFIX.test(bucketPrefix)) {
    throw new TeamkitError(
      'INVALID_INPUT',
      `The NATS bucket prefix ${JSON.stringify(bucketPrefix)} is not valid: use 1 to 48 letters, digits, "_" or "-".`,
      { details: { bucketPrefix: String(bucketPrefix) } },
    );
  }
  return {
    bucket: bucketPrefix,
    bucketStream: `KV_${bucketPrefix}`,
    logStream: `${bucketPrefix}-logs`,
    logSubjectPrefix: `${bucketPrefix}.log`,
    blobBucket: `${bucketPrefix}-blobs`,
  };
}

/** The KV key of a value key (`PATH_TRAVERSAL` for a bad key, as in every store). */
export function valueKey(key: string, what = 'key'): string {
  return checkedLength(storeKeySegments(key, what).map(encodeSegment).join('.'), key);
}

/**
 * The subject filter of everything strictly under a prefix (`''` is the root): `>` or
 * `<tokens>.>`, for KV watches, listings and purges.
 */
export function prefixFilter(prefix: string): string {
  const segments = storeKeySegments(prefix, 'prefix', true);
  return segments.length === 0 ? '>' : `${segments.map(encodeSegment).join('.')}.>`;
}

/** The tokens of a prefix, `[]` for the root. */
export function prefixTokens(prefix: string): string[] {
  return storeKeySegments(prefix, 'prefix', true).map(encodeSegment);
}

/** The KV key of entry `id` of a collection (the id is checked by the caller). */
export function entryKey(collectionKey: string, id: string): string {
  return `${collectionKey}.${ENTRY_TOKEN}.${encodeSegment(id)}`;
}

/** The KV key filter of all entries of a collection. */
export function entryFilter(collectionKey: string): string {
  return `${collectionKey}.${ENTRY_TOKEN}.*`;
}

/** The KV key of a collection's ledger. */
export function ledgerKey(collectionKey: string): string {
  return `${collectionKey}.${LEDGER_TOKEN}`;
}

/** The KV key of the lock named by a Teamkit key. */
export function lockKey(key: string): string {
  return checkedLength(`${LOCK_TOKEN}.${valueKey(key, 'lock key')}`, key);
}

/** The log subject of a log key. */
export function logSubject(names: NatsNames, key: string): string {
  return checkedLength(`${names.logSubjectPrefix}.${valueKey(key, 'log key')}`, key);
}

/** What a KV key (relative to the bucket) stands for. */
export type DecodedKey =
  | { kind: 'value'; key: string }
  | { kind: 'entry'; collection: string; id: string }
  | { kind: 'ledger'; collection: string }
  | { kind: 'internal' };

/** Decodes a KV key back to the Teamkit key, entry or ledger it stands for. */
export function decodeKvKey(kvKey: string): DecodedKey {
  const tokens = kvKey.split('.');
  const internal = tokens.findIndex(isInternalToken);
  if (internal === -1) return { kind: 'value', key: tokens.map(decodeToken).join('/') };
  const collection = tokens.slice(0, internal).map(decodeToken).join('/');
  const marker = tokens[internal];
  if (internal > 0 && marker === ENTRY_TOKEN && tokens.length === internal + 2) {
    return { kind: 'entry', collection, id: decodeToken(tokens[internal + 1] as string) };
  }
  if (internal > 0 && marker === LEDGER_TOKEN && tokens.length === internal + 1) {
    return { kind: 'ledger', collection };
  }
  return { kind: 'internal' };
}

/** The Teamkit log key of a log subject, or `undefined` for another subject. */
export function decodeLogSubject(names: NatsNames, subject: string): string | undefined {
  const prefix = `${names.logSubjectPrefix}.`;
  if (!subject.startsWith(prefix)) return undefined;
  return subject.slice(prefix.length).split('.').map(decodeToken).join('/');
}
