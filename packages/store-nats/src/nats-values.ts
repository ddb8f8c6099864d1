import { TeamkitError } from '@teamkit/team-core';
import { assertStorableText, type StoredValue } from '@teamkit/team-core/storage';
import type { BlobStore } from './blob-store.js';
import { valueKey } from './key-mapping.js';
import { KV_OPERATION_HEADER, type NatsLink } from './nats-link.js';
import {
  bodyFromMessage,
  bodyHeaders,
  bodyOf,
  isTombstone,
  payloadOf,
  type StoredBody,
  textOf,
} from './stored-record.js';

const REVISION = /^n([1-9][0-9]{0,15})$/;
// Bounds a loop that only repeats when another writer changed the same key in between.
const MAX_ATTEMPTS = 64;

/** A revision of the NATS store: `n` and the stream sequence of the value's message. */
export function revisionOf(seq: number): string {
  return `n${seq}`;
}

/** The stream sequence a revision stands for; `INVALID_INPUT` when it is not one of ours. */
export function sequenceOf(revision: string, key: string): number {
  const match = typeof revision === 'string' ? REVISION.exec(revision) : null;
  const seq = match === null ? Number.NaN : Number(match[1]);
  if (!Number.isSafeInteger(seq)) {
    throw new TeamkitError(
      'INVALID_INPUT',
      `${JSON.stringify(revision)} is not a revision of the NATS store; pass the revision that read ${key} returned.`,
      { details: { key, revision: String(revision) } },
    );
  }
  return seq;
}

/**
 * Values with revisions: one KV key each, the revision being the stream sequence of the
 * message that holds the value. `create` publishes expecting the subject empty (or at its
 * delete marker), `update` expecting the revision read: the server applies the write only
 * if the key is still there, so one of any number of concurrent writers wins. `remove`
 * writes a delete marker, which moves the subject on, so no revision read before it
 * updates again.
 */
export function createNatsValues(link: NatsLink, blobs: BlobStore, inlineLimit: number) {
  async function stage(key: string, text: string): Promise<StoredBody> {
    assertStorableText(text, key);
    return bodyOf(text, key, blobs, inlineLimit);
  }

  async function discard(body: StoredBody): Promise<void> {
    if ('blob' in body) await blobs.remove(body.blob).catch(() => {});
  }

  function write(
    subject: string,
    body: StoredBody,
    expectSeq: number | undefined,
    key: string,
    what: string,
  ): Promise<number | undefined> {
    return link.publish(
      subject,
      payloadOf(body),
      { headers: bodyHeaders(body), expectSeq },
      { what, key },
    );
  }

  /** The last message of a key, `undefined` when there is none. */
  function last(subject: string, key: string) {
    return link.getLast('bucket', subject, { what: 'read', key });
  }

  async function read(key: string): Promise<StoredValue | undefined> {
    const subject = link.kvSubject(valueKey(key));
    const message = await last(subject, key);
    if (message === undefined || isTombstone(message)) return undefined;
    const text = await textOf(bodyFromMessage(message, key), key, blobs);
    return { text, revision: revisionOf(message.seq) };
  }

  async function create(key: string, text: string): Promise<string> {
    const subject = link.kvSubject(valueKey(key));
    const body = await stage(key, text);
    let expectSeq = 0;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const seq = await write(subject, body, expectSeq, key, 'create');
      if (seq !== undefined) return revisionOf(seq);
      const message = await last(subject, key);
      if (message !== undefined && !isTombstone(message)) {
        await discard(body);
        throw new TeamkitError('ALREADY_EXISTS', `${key} already exists; it was left untouched.`, {
          details: { key },
        });
      }
      expectSeq = message?.seq ?? 0;
    }
    await discard(body);
    throw contended(key);
  }

  async function update(key: string, text: string, revision: string): Promise<string> {
    const subject = link.kvSubject(valueKey(key));
    const expectSeq = sequenceOf(revision, key);
    const body = await stage(key, text);
    const seq = await write(subject, body, expectSeq, key, 'update');
    if (seq !== undefined) return revisionOf(seq);
    await discard(body);
    const message = await last(subject, key);
    if (message === undefined || isTombstone(message)) {
      throw new TeamkitError(
        'DOCUMENT_NOT_FOUND',
        `${key} does not exist (it was removed, or never created); nothing was written.`,
        { details: { key } },
      );
    }
    throw new TeamkitError(
      'REVISION_CONFLICT',
      `${key} changed since it was read (revision ${revision} is no longer current); nothing was written. Read it again and retry.`,
      { details: { key, revision } },
    );
  }

  async function put(key: string, text: string): Promise<string> {
    const subject = link.kvSubject(valueKey(key));
    const body = await stage(key, text);
    return revisionOf((await write(subject, body, undefined, key, 'write')) as number);
  }

  async function remove(key: string): Promise<void> {
    const subject = link.kvSubject(valueKey(key));
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const message = await last(subject, key);
      if (message === undefined || isTombstone(message)) return;
      const seq = await link.publish(
        subject,
        new Uint8Array(0),
        { headers: { [KV_OPERATION_HEADER]: 'DEL' }, expectSeq: message.seq },
        { what: 'remove', key },
      );
      if (seq !== undefined) {
        const body = bodyFromMessage(message, key);
        if ('blob' in body) await discard(body);
        return;
      }
    }
    throw contended(key);
  }

  async function claimMarker(key: string): Promise<boolean> {
    try {
      await create(key, '');
      return true;
    } catch (error) {
      if (error instanceof TeamkitError && error.code === 'ALREADY_EXISTS') return false;
      throw error;
    }
  }

  return { read, create, update, put, remove, claimMarker };
}

function contended(key: string): TeamkitError {
  return new TeamkitError(
    'REVISION_CONFLICT',
    `${key} kept changing under other writers (${MAX_ATTEMPTS} tries); nothing was written. Retry.`,
    { details: { key } },
  );
}
