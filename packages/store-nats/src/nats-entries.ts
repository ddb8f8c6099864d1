import { TeamkitError } from '@teamkit/team-core';
import {
  type AddEntryOptions,
  assertEntryId,
  assertEntryState,
  assertStorableText,
  type EntryListing,
  type EntryMoveOutcome,
  type EntryState,
  type MoveEntriesOptions,
} from '@teamkit/team-core/storage';
import { type AddSettings, createEntryAdder } from './add-entry.js';
import type { BlobStore } from './blob-store.js';
import {
  createCollectionAccess,
  logicalChangedAt,
  logicalState,
  mapLimited,
} from './entry-ledger.js';
import { createIntentCloser } from './intent-closer.js';
import { decodeKvKey, entryFilter, valueKey } from './key-mapping.js';
import { createEntryMover } from './move-entries.js';
import type { NatsLink } from './nats-link.js';
import {
  bodyOf,
  entryMetaOf,
  HEADERS,
  isTombstone,
  MESSAGE_SIZE_HEADER,
  textOf,
} from './stored-record.js';
import { scanStream } from './stream-scan.js';

const byId = (a: EntryListing, b: EntryListing) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * The entries of the NATS store: one KV key per entry (`<collection>./entry.<id>`) whose
 * headers hold its state, and the collection's ledger (`<collection>./ledger`) for the
 * exact admission totals. See add-entry.ts and move-entries.ts for the two write paths.
 */
export function createNatsEntries(
  link: NatsLink,
  blobs: BlobStore,
  inlineLimit: number,
  settings: AddSettings,
) {
  const closer = createIntentCloser(link);
  const adder = createEntryAdder(link, settings, closer);
  const mover = createEntryMover(closer, settings.now);

  function open(collection: string) {
    const collectionKey = valueKey(collection, 'collection');
    return { collectionKey, access: createCollectionAccess(link, collectionKey, collection) };
  }

  /** An entry and the state readers see it in (a committed add counts). */
  async function logicalEntry(collection: string, id: string) {
    const { access } = open(collection);
    const [{ entry }, ledger] = await Promise.all([access.readEntry(id), access.readLedger()]);
    if (entry === undefined) return undefined;
    const state = logicalState(entry, ledger.doc.open[id]);
    return state === undefined ? undefined : { entry, state };
  }

  async function listPending(collection: string, state: EntryState): Promise<EntryListing[]> {
    const { access } = open(collection);
    const ledger = await access.readLedger();
    const ids = [...new Set([...Object.keys(ledger.doc.pending), ...Object.keys(ledger.doc.open)])];
    const reads = await mapLimited(ids, (id) => access.readEntry(id));
    const listing: EntryListing[] = [];
    ids.forEach((id, index) => {
      const entry = reads[index]?.entry;
      if (entry === undefined) return;
      const intent = ledger.doc.open[id];
      if (logicalState(entry, intent) !== state) return;
      listing.push({ id, size: entry.body.size, changedAt: logicalChangedAt(entry, intent) });
    });
    return listing.sort(byId);
  }

  async function listProcessed(collection: string): Promise<EntryListing[]> {
    const { collectionKey, access } = open(collection);
    const ledger = await access.readLedger();
    const messages = await scanStream(link, {
      stream: 'bucket',
      filter: link.kvSubject(entryFilter(collectionKey)),
      from: 'last-per-subject',
      headersOnly: true,
      operation: { what: 'list', key: collection },
    });
    const listing: EntryListing[] = [];
    const prefix = `$KV.${link.names.bucket}.`;
    for (const message of messages) {
      if (isTombstone({ header: message.header })) continue;
      const decoded = decodeKvKey(message.subject.slice(prefix.length));
      if (decoded.kind !== 'entry') continue;
      const meta = entryMetaOf(message.header, `${collection}/${decoded.id}`);
      const intent = ledger.doc.open[decoded.id];
      const decided = intent !== undefined && intent.r === message.seq ? intent : undefined;
      if ((decided?.s ?? meta.state) !== 'processed') continue;
      const size = Number(
        message.header?.get(HEADERS.blob)
          ? message.header.get(HEADERS.size)
          : message.header?.get(MESSAGE_SIZE_HEADER),
      );
      listing.push({
        id: decoded.id,
        size: Number.isFinite(size) ? size : 0,
        changedAt: decided?.t ?? meta.changedAt,
      });
    }
    return listing.sort(byId);
  }

  return {
    async addEntry(
      collection: string,
      id: string,
      text: string,
      options: AddEntryOptions = {},
    ): Promise<void> {
      assertEntryId(id);
      const { collectionKey, access } = open(collection);
      const name = `${collection}/${id}`;
      assertStorableText(text, name);
      const body = await bodyOf(text, name, blobs, inlineLimit);
      try {
        await adder.add(access, collectionKey, collection, id, body, options);
      } catch (error) {
        if ('blob' in body) await blobs.remove(body.blob).catch(() => {});
        throw error;
      }
    },

    async moveEntries(
      collection: string,
      ids: readonly string[],
      from: readonly EntryState[],
      to: EntryState,
      options: MoveEntriesOptions = {},
    ): Promise<EntryMoveOutcome> {
      for (const state of [...from, to]) assertEntryState(state);
      if (from.length === 0 || from.includes(to)) {
        throw new TeamkitError(
          'INVALID_INPUT',
          `Refused to move entries from ${JSON.stringify(from)} to ${JSON.stringify(to)}: "from" must name at least one state, and not "to".`,
          { details: { from: from.join(','), to } },
        );
      }
      for (const id of ids) assertEntryId(id);
      const { collectionKey, access } = open(collection);
      return mover.move(access, collectionKey, ids, from, to, options);
    },

    async listEntries(collection: string, state: EntryState): Promise<EntryListing[]> {
      assertEntryState(state);
      return state === 'processed' ? listProcessed(collection) : listPending(collection, state);
    },

    async readEntry(
      collection: string,
      id: string,
      state: EntryState,
    ): Promise<string | undefined> {
      assertEntryId(id);
      assertEntryState(state);
      const found = await logicalEntry(collection, id);
      if (found === undefined || found.state !== state) return undefined;
      return textOf(found.entry.body, `${collection}/${id}`, blobs);
    },

    /** Closes the intents this process left open (when the store closes). */
    flush: () => closer.flush(),

    async entryState(collection: string, id: string): Promise<EntryState | undefined> {
      assertEntryId(id);
      return (await logicalEntry(collection, id))?.state;
    },
  };
}
