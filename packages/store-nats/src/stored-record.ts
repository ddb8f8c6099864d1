import type { StoredMsg } from '@nats-io/jetstream';
import { TeamkitError } from '@teamkit/team-core';
import type { EntryState } from '@teamkit/team-core/storage';
import type { BlobStore } from './blob-store.js';
import { KV_OPERATION_HEADER } from './nats-link.js';

/**
 * How a text is kept in one KV message. Small texts are the message's payload, as is, so
 * `nats kv get` shows the document; larger ones go to the object store and the message
 * holds only headers naming the object. Entries add their state in headers, so listings
 * can read headers only.
 */
export const HEADERS = {
  blob: 'Teamkit-Blob',
  size: 'Teamkit-Size',
  state: 'Teamkit-State',
  changedAt: 'Teamkit-Changed',
  token: 'Teamkit-Token',
} as const;

/** The server's header carrying a payload's size in headers-only deliveries. */
export const MESSAGE_SIZE_HEADER = 'Nats-Msg-Size';

/** A stored text: inline bytes, or the name of an object, with its size in bytes. */
export type StoredBody = { inline: Uint8Array; size: number } | { blob: string; size: number };

const decoder = new TextDecoder('utf-8', { fatal: true });
const encoder = new TextEncoder();

/** Whether a message is a KV delete or purge marker (the value is gone). */
export function isTombstone(message: { header?: { get(name: string): string } }): boolean {
  const operation = message.header?.get(KV_OPERATION_HEADER) ?? '';
  return operation === 'DEL' || operation === 'PURGE';
}

/** Makes the body of a text: inline when it fits `inlineLimit` bytes, else a new object. */
export async function bodyOf(
  text: string,
  key: string,
  blobs: BlobStore,
  inlineLimit: number,
): Promise<StoredBody> {
  const data = encoder.encode(text);
  if (data.length <= inlineLimit) return { inline: data, size: data.length };
  return { blob: await blobs.write(data, key), size: data.length };
}

/** The headers that say where a body is. */
export function bodyHeaders(body: StoredBody): Record<string, string> {
  return 'blob' in body ? { [HEADERS.blob]: body.blob, [HEADERS.size]: String(body.size) } : {};
}

/** The message payload of a body. */
export function payloadOf(body: StoredBody): Uint8Array {
  return 'blob' in body ? new Uint8Array(0) : body.inline;
}

function corrupt(key: string, problem: string): TeamkitError {
  return new TeamkitError(
    'CORRUPT_DOCUMENT',
    `${key} in the NATS store ${problem}; it was left in place. Remove or rewrite it.`,
    { details: { key } },
  );
}

/** The body a stored message holds. */
export function bodyFromMessage(message: StoredMsg, key: string): StoredBody {
  const blob = message.header?.get(HEADERS.blob) ?? '';
  if (blob === '') return { inline: message.data, size: message.data.length };
  const size = Number(message.header.get(HEADERS.size));
  if (!Number.isSafeInteger(size) || size < 0) throw corrupt(key, 'has a bad size header');
  return { blob, size };
}

/** The text of a body (reading its object if it has one); `CORRUPT_DOCUMENT` if not UTF-8. */
export async function textOf(body: StoredBody, key: string, blobs: BlobStore): Promise<string> {
  const data = 'blob' in body ? await blobs.read(body.blob, key) : body.inline;
  try {
    return decoder.decode(data);
  } catch {
    throw corrupt(key, 'is not UTF-8 text');
  }
}

/** An entry's state as stored: the three entry states, or `staged` (written, not yet added). */
export type StoredEntryState = EntryState | 'staged';

/** An entry as read from its key. */
export interface EntryRecord {
  /** The KV revision (stream sequence) it was read at. */
  rev: number;
  state: StoredEntryState;
  changedAt: number;
  /** Who wrote the last state change: the token of an add or a move. */
  token: string;
  body: StoredBody;
}

const STORED_STATES: readonly StoredEntryState[] = ['staged', 'unread', 'reserved', 'processed'];

/** The headers of an entry message. */
export function entryHeaders(
  entry: Pick<EntryRecord, 'state' | 'changedAt' | 'token' | 'body'>,
): Record<string, string> {
  return {
    ...bodyHeaders(entry.body),
    [HEADERS.state]: entry.state,
    [HEADERS.changedAt]: String(entry.changedAt),
    [HEADERS.token]: entry.token,
  };
}

/** Reads the state headers of an entry message (full or headers-only). */
export function entryMetaOf(
  header: { get(name: string): string } | undefined,
  key: string,
): Pick<EntryRecord, 'state' | 'changedAt' | 'token'> {
  const state = header?.get(HEADERS.state) as StoredEntryState | undefined;
  const changedAt = Number(header?.get(HEADERS.changedAt));
  const token = header?.get(HEADERS.token) ?? '';
  if (state === undefined || !STORED_STATES.includes(state)) {
    throw corrupt(key, 'is not an entry (no state header)');
  }
  if (!Number.isFinite(changedAt)) throw corrupt(key, 'has a bad change time');
  return { state, changedAt, token };
}

/** An entry as stored in a message. */
export function entryFromMessage(message: StoredMsg, key: string): EntryRecord {
  return {
    rev: message.seq,
    ...entryMetaOf(message.header, key),
    body: bodyFromMessage(message, key),
  };
}

/** Whether a state counts in the admission totals. */
export function isPending(state: StoredEntryState | undefined): boolean {
  return state === 'unread' || state === 'reserved';
}
