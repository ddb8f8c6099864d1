import { assertAge, type StoreEntryInfo } from '@teamkit/team-core/storage';
import type { BlobStore } from './blob-store.js';
import { copyLedger, createCollectionAccess } from './entry-ledger.js';
import {
  decodeToken,
  ENTRY_TOKEN,
  isInternalToken,
  LEDGER_TOKEN,
  LOCK_TOKEN,
  logSubject,
  prefixFilter,
  prefixTokens,
  valueKey,
} from './key-mapping.js';
import { KV_OPERATION_HEADER, type NatsLink } from './nats-link.js';
import { entryMetaOf, HEADERS, isTombstone, MESSAGE_SIZE_HEADER } from './stored-record.js';
import { type ScannedMessage, scanStream } from './stream-scan.js';

/**
 * The whole-tree operations of the NATS store: listing children, stat, removing a tree
 * and cleaning up what crashed writers left. They read every key under a prefix (one
 * headers-only consumer), so they cost in proportion to what the prefix holds.
 */
export function createNatsTree(link: NatsLink, blobs: BlobStore) {
  const bucketPrefix = `$KV.${link.names.bucket}.`;
  const logPrefix = `${link.names.logSubjectPrefix}.`;

  const isLive = (message: ScannedMessage) => !isTombstone({ header: message.header });

  /** The live KV keys under a filter (headers only); stops early once `wanted` finds one. */
  async function liveKeys(
    filter: string,
    key: string,
    wanted?: (message: ScannedMessage) => boolean,
  ): Promise<ScannedMessage[]> {
    const messages = await scanStream(link, {
      stream: 'bucket',
      filter: `${bucketPrefix}${filter}`,
      from: 'last-per-subject',
      headersOnly: true,
      operation: { what: 'list', key: key || 'the store root' },
      ...(wanted === undefined
        ? {}
        : {
            enough: (collected: readonly ScannedMessage[]) =>
              collected.some((message) => isLive(message) && wanted(message)),
          }),
    });
    return messages.filter(isLive);
  }

  /** Subjects of logs under a filter, with their line counts. */
  async function logSubjects(filter: string, key: string): Promise<Record<string, number>> {
    const info = await link.call({ what: 'list', key: key || 'the store root' }, () =>
      link.jsm.streams.info(link.names.logStream, { subjects_filter: `${logPrefix}${filter}` }),
    );
    return info.state.subjects ?? {};
  }

  function childOf(tokens: string[], depth: number): string | undefined {
    const token = tokens[depth];
    if (token === undefined || isInternalToken(token)) return undefined;
    return decodeToken(token);
  }

  async function list(prefix: string): Promise<string[]> {
    const tokens = prefixTokens(prefix);
    const filter = prefixFilter(prefix);
    const [keys, logs] = await Promise.all([liveKeys(filter, prefix), logSubjects(filter, prefix)]);
    const names = new Set<string>();
    for (const message of keys) {
      const name = childOf(message.subject.slice(bucketPrefix.length).split('.'), tokens.length);
      if (name !== undefined) names.add(name);
    }
    for (const subject of Object.keys(logs)) {
      const name = childOf(subject.slice(logPrefix.length).split('.'), tokens.length);
      if (name !== undefined) names.add(name);
    }
    return [...names].sort();
  }

  async function stat(key: string): Promise<StoreEntryInfo | undefined> {
    const kvKey = valueKey(key);
    const value = await link.getLast('bucket', link.kvSubject(kvKey), { what: 'stat', key });
    if (value !== undefined && !isTombstone(value)) {
      const size = value.header?.get(HEADERS.blob)
        ? Number(value.header.get(HEADERS.size))
        : value.data.length;
      return { kind: 'value', size, modifiedAt: value.time.getTime() };
    }
    const subject = logSubject(link.names, key);
    const lastLine = await link.getLast('log', subject, { what: 'stat', key });
    if (lastLine !== undefined) {
      const lines = await scanStream(link, {
        stream: 'log',
        filter: subject,
        from: { startSeq: 1, endSeq: lastLine.seq },
        headersOnly: true,
        operation: { what: 'stat', key },
      });
      const size = lines.reduce(
        (sum, line) => sum + Number(line.header?.get(MESSAGE_SIZE_HEADER) ?? 0) + 1,
        0,
      );
      return { kind: 'value', size, modifiedAt: lastLine.time.getTime() };
    }
    const under = `${kvKey}.>`;
    // A folder holds a value, a log or a collection's entries; a lock or a ledger alone is not one.
    const holdsSomething = (message: ScannedMessage) => {
      const child = message.subject.slice(bucketPrefix.length + kvKey.length + 1).split('.')[0];
      return !isInternalToken(child ?? '') || child === ENTRY_TOKEN;
    };
    const [keys, logs] = await Promise.all([
      liveKeys(under, key, holdsSomething),
      logSubjects(under, key),
    ]);
    const visible = keys.some(holdsSomething);
    if (!visible && Object.keys(logs).length === 0) return undefined;
    const newest = keys.reduce((latest, message) => Math.max(latest, message.time), 0);
    return { kind: 'folder', size: 0, modifiedAt: newest || Date.now() };
  }

  /** Blob names referenced by live keys under a filter. */
  function blobsOf(messages: readonly ScannedMessage[]): string[] {
    return messages.flatMap((message) => {
      const blob = message.header?.get(HEADERS.blob) ?? '';
      return blob === '' ? [] : [blob];
    });
  }

  async function removeTree(prefix: string): Promise<void> {
    const kvKey = valueKey(prefix, 'prefix');
    const referenced = blobsOf(await liveKeys(`${kvKey}.>`, prefix));
    const exact = await link.getLast('bucket', link.kvSubject(kvKey), {
      what: 'remove',
      key: prefix,
    });
    if (exact !== undefined && !isTombstone(exact)) {
      const blob = exact.header?.get(HEADERS.blob) ?? '';
      if (blob !== '') referenced.push(blob);
    }
    const operation = { what: 'remove', key: prefix };
    await link.call(operation, () =>
      Promise.all([
        link.jsm.streams.purge(link.names.bucketStream, { filter: link.kvSubject(kvKey) }),
        link.jsm.streams.purge(link.names.bucketStream, { filter: link.kvSubject(`${kvKey}.>`) }),
        link.jsm.streams.purge(link.names.logStream, { filter: `${logPrefix}${kvKey}` }),
        link.jsm.streams.purge(link.names.logStream, { filter: `${logPrefix}${kvKey}.>` }),
      ]),
    );
    for (const blob of referenced) await blobs.remove(blob).catch(() => {});
  }

  async function removeStaleTemporaries(prefix: string, olderThanMs: number): Promise<number> {
    const filter = prefixFilter(prefix);
    assertAge(olderThanMs);
    const cutoff = Date.now() - olderThanMs;
    let removed = 0;
    const under = (await liveKeys(filter, prefix)).filter((message) => message.time < cutoff);
    for (const message of under) {
      const tokens = message.subject.slice(bucketPrefix.length).split('.');
      if (tokens[tokens.length - 2] === ENTRY_TOKEN) {
        // A staged entry nobody committed: what an add that died before its commit left.
        const collectionTokens = tokens.slice(0, -2);
        const collection = collectionTokens.map(decodeToken).join('/');
        const id = decodeToken(tokens[tokens.length - 1] as string);
        if (entryMetaOf(message.header, `${collection}/${id}`).state !== 'staged') continue;
        const access = createCollectionAccess(link, collectionTokens.join('.'), collection);
        if ((await access.readLedger()).doc.open[id] !== undefined) continue;
        if ((await access.deleteEntry(id, message.seq)) !== undefined) removed += 1;
      } else if (tokens[tokens.length - 1] === LEDGER_TOKEN) {
        // An add slot whose holder died, untouched for the age given.
        const collectionTokens = tokens.slice(0, -1);
        const collection = collectionTokens.map(decodeToken).join('/');
        const access = createCollectionAccess(link, collectionTokens.join('.'), collection);
        const ledger = await access.readLedger();
        if (ledger.rev !== message.seq || ledger.doc.adder === undefined) continue;
        const doc = copyLedger(ledger.doc);
        delete doc.adder;
        if ((await access.writeLedger(doc, ledger.rev)) !== undefined) removed += 1;
      }
    }
    // Locks whose holder stopped beating long ago (it died holding them).
    const lockFilter = prefix === '' ? `${LOCK_TOKEN}.>` : `${LOCK_TOKEN}.${filter}`;
    for (const message of await liveKeys(lockFilter, prefix)) {
      if (message.time >= cutoff) continue;
      const seq = await link.publish(
        message.subject,
        new Uint8Array(0),
        { headers: { [KV_OPERATION_HEADER]: 'DEL' }, expectSeq: message.seq },
        { what: 'remove the stale lock', key: message.subject },
      );
      if (seq !== undefined) removed += 1;
    }
    if (prefix === '') {
      const everything = await liveKeys('>', prefix);
      removed += await blobs.removeUnreferenced(olderThanMs, new Set(blobsOf(everything)));
    }
    return removed;
  }

  return { list, stat, removeTree, removeStaleTemporaries };
}
