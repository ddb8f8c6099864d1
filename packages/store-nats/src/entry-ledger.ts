import { TeamkitError } from '@teamkit/team-core';
import type { EntryState, PendingTotals } from '@teamkit/team-core/storage';
import { entryKey, ledgerKey } from './key-mapping.js';
import type { NatsLink } from './nats-link.js';
import {
  type EntryRecord,
  entryFromMessage,
  entryHeaders,
  isPending,
  isTombstone,
  payloadOf,
} from './stored-record.js';

/**
 * A change of an entry that was decided (committed to the ledger) and may not have been
 * written to the entry yet: "entry `id`, at revision `r`, becomes `s`, changed at `t`,
 * written by `k`". `b` is its size. Anyone who finds it may finish it.
 */
export interface Intent {
  r: number;
  s: EntryState;
  t: number;
  k: string;
  b: number;
}

/**
 * A collection's ledger, one KV key beside its entries (`<collection>./ledger`): the exact
 * set of pending (unread or reserved) entries with their sizes, the open intents, and the
 * add slot (the adder holding it, and its heartbeat count).
 */
export interface LedgerDocument {
  v: 1;
  pending: Record<string, number>;
  open: Record<string, Intent>;
  adder?: { h: string; n: number };
}

/** A ledger and the revision it was read at (0, or a delete marker's, when it has none). */
export interface Ledger {
  rev: number;
  doc: LedgerDocument;
}

const decoder = new TextDecoder();
const encoder = new TextEncoder();

function emptyLedger(): LedgerDocument {
  return { v: 1, pending: {}, open: {} };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseLedger(data: Uint8Array, collection: string): LedgerDocument {
  let doc: unknown;
  try {
    doc = JSON.parse(decoder.decode(data));
  } catch {
    doc = undefined;
  }
  if (
    !isRecord(doc) ||
    doc.v !== 1 ||
    !isRecord(doc.pending) ||
    !isRecord(doc.open) ||
    Object.values(doc.pending).some((size) => !Number.isSafeInteger(size))
  ) {
    throw new TeamkitError(
      'CORRUPT_DOCUMENT',
      `The ledger of ${collection} in the NATS store is not valid; it was left in place. Remove the collection's ledger key to have it rebuilt empty.`,
      { details: { collection } },
    );
  }
  return doc as unknown as LedgerDocument;
}

/** The admission totals a ledger stands for. */
export function totalsOf(doc: LedgerDocument): PendingTotals {
  const sizes = Object.values(doc.pending);
  return { count: sizes.length, bytes: sizes.reduce((sum, size) => sum + size, 0) };
}

/** A copy of a ledger document that can be changed. */
export function copyLedger(doc: LedgerDocument): LedgerDocument {
  return {
    v: 1,
    pending: { ...doc.pending },
    open: { ...doc.open },
    ...(doc.adder === undefined ? {} : { adder: { ...doc.adder } }),
  };
}

/** Makes a ledger agree with what an entry really is, and closes its intent. */
export function recordTruth(doc: LedgerDocument, id: string, entry: EntryRecord | undefined): void {
  delete doc.open[id];
  if (entry !== undefined && isPending(entry.state)) doc.pending[id] = entry.body.size;
  else delete doc.pending[id];
}

/**
 * The state readers see: what the entry's last committed change makes it. An open intent
 * at the entry's revision is decided, so the entry is already in the intent's state; a
 * staged entry without one is not there yet.
 */
export function logicalState(
  entry: EntryRecord,
  intent: Intent | undefined,
): EntryState | undefined {
  if (intent !== undefined && intent.r === entry.rev) return intent.s;
  return entry.state === 'staged' ? undefined : entry.state;
}

/** When an entry last changed state, counting a decided change not yet written. */
export function logicalChangedAt(entry: EntryRecord, intent: Intent | undefined): number {
  return intent !== undefined && intent.r === entry.rev ? intent.t : entry.changedAt;
}

/** The reads and compare-and-set writes of one collection's entries and ledger. */
export function createCollectionAccess(link: NatsLink, collectionKey: string, collection: string) {
  const ledgerSubject = link.kvSubject(ledgerKey(collectionKey));
  const entrySubject = (id: string) => link.kvSubject(entryKey(collectionKey, id));
  const entryName = (id: string) => `${collection}/${id}`;

  return {
    ledgerSubject,

    /** The ledger (empty when the collection has none yet). */
    async readLedger(): Promise<Ledger> {
      const message = await link.getLast('bucket', ledgerSubject, {
        what: 'read the ledger of',
        key: collection,
      });
      if (message === undefined) return { rev: 0, doc: emptyLedger() };
      if (isTombstone(message)) return { rev: message.seq, doc: emptyLedger() };
      return { rev: message.seq, doc: parseLedger(message.data, collection) };
    },

    /** Writes the ledger if it is still at `rev`; the new revision, or `undefined`. */
    writeLedger(doc: LedgerDocument, rev: number): Promise<number | undefined> {
      return link.publish(
        ledgerSubject,
        encoder.encode(JSON.stringify(doc)),
        { expectSeq: rev },
        { what: 'update the ledger of', key: collection },
      );
    },

    /** An entry, and the sequence of its key's last message (0 when it has none). */
    async readEntry(id: string): Promise<{ entry: EntryRecord | undefined; lastSeq: number }> {
      const message = await link.getLast('bucket', entrySubject(id), {
        what: 'read',
        key: entryName(id),
      });
      if (message === undefined) return { entry: undefined, lastSeq: 0 };
      if (isTombstone(message)) return { entry: undefined, lastSeq: message.seq };
      return { entry: entryFromMessage(message, entryName(id)), lastSeq: message.seq };
    },

    /** Writes an entry if its key is still at `expectSeq`; the new revision, or `undefined`. */
    writeEntry(
      id: string,
      entry: Omit<EntryRecord, 'rev'>,
      expectSeq: number,
    ): Promise<number | undefined> {
      return link.publish(
        entrySubject(id),
        payloadOf(entry.body),
        { headers: entryHeaders(entry), expectSeq },
        { what: 'write', key: entryName(id) },
      );
    },

    /** Deletes an entry if it is still at `expectSeq` (a staged entry nobody will add). */
    deleteEntry(id: string, expectSeq: number): Promise<number | undefined> {
      return link.publish(
        entrySubject(id),
        new Uint8Array(0),
        { headers: { 'KV-Operation': 'DEL' }, expectSeq },
        { what: 'remove', key: entryName(id) },
      );
    },
  };
}

/** One collection's reads and writes. */
export type CollectionAccess = ReturnType<typeof createCollectionAccess>;

/**
 * Finishes an intent: writes its state to the entry if the entry is still at the intent's
 * revision (the same write its owner would make; only one of them lands), then reads what
 * the entry really is. Idempotent: any number of processes may settle the same intent.
 */
export async function settleIntent(
  access: CollectionAccess,
  id: string,
  intent: Intent,
): Promise<EntryRecord | undefined> {
  let { entry } = await access.readEntry(id);
  if (entry !== undefined && entry.rev === intent.r) {
    const applied = { state: intent.s, changedAt: intent.t, token: intent.k, body: entry.body };
    const seq = await access.writeEntry(id, applied, intent.r);
    if (seq !== undefined) return { ...applied, rev: seq };
    ({ entry } = await access.readEntry(id));
  }
  return entry;
}

/** Runs `fn` over `items`, at most `limit` at a time, keeping the order of the results. */
export async function mapLimited<T, R>(
  items: readonly T[],
  fn: (item: T) => Promise<R>,
  limit = 32,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  async function worker(): Promise<void> {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await fn(items[index] as T);
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * Settles intents and records what their entries really are in `doc` (which the caller
 * then writes at the revision it read).
 */
export async function settleInto(
  access: CollectionAccess,
  doc: LedgerDocument,
  intents: readonly (readonly [string, Intent])[],
): Promise<void> {
  const entries = await mapLimited(intents, ([id, intent]) => settleIntent(access, id, intent));
  intents.forEach(([id], index) => {
    recordTruth(doc, id, entries[index]);
  });
}

// An open intent seen this long (on this process's clock) probably lost its owner.
const SETTLE_AFTER_MS = 2_000;
const MAX_SETTLED_PER_WRITE = 16;

/**
 * Picks the open intents of other writers that this process should settle when it writes
 * a ledger: those it has seen open for a while (their owner most likely died between its
 * ledger write and its entry write). Fresh ones are left to their owners.
 */
export function createIntentSweeper(now: () => number = Date.now) {
  const firstSeen = new Map<string, number>();
  return {
    due(collectionKey: string, doc: LedgerDocument): [string, Intent][] {
      const due: [string, Intent][] = [];
      for (const [id, intent] of Object.entries(doc.open)) {
        const key = `${collectionKey}|${id}|${intent.k}`;
        const seen = firstSeen.get(key);
        if (seen === undefined) {
          if (firstSeen.size > 10_000) firstSeen.clear();
          firstSeen.set(key, now());
        } else if (now() - seen > SETTLE_AFTER_MS && due.length < MAX_SETTLED_PER_WRITE) {
          due.push([id, intent]);
        }
      }
      return due;
    },
  };
}
