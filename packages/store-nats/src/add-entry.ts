import { randomUUID } from 'node:crypto';
import { TeamkitError } from '@teamkit/team-core';
import type { AddEntryOptions } from '@teamkit/team-core/storage';
import {
  type CollectionAccess,
  copyLedger,
  createIntentSweeper,
  type Intent,
  type Ledger,
  recordTruth,
  settleIntent,
  settleInto,
  totalsOf,
} from './entry-ledger.js';
import type { IntentCloser } from './intent-closer.js';
import { createLeaseObserver, watchSubject } from './lease.js';
import type { NatsLink } from './nats-link.js';
import type { EntryRecord } from './stored-record.js';

/** What adding needs besides the collection: timing of the add slot and the clock. */
export interface AddSettings {
  staleMs: number;
  timeoutMs: number;
  now: () => number;
}

const MAX_ATTEMPTS = 64;

function alreadyExists(collection: string, id: string, state: string): TeamkitError {
  return new TeamkitError(
    'ALREADY_EXISTS',
    `Entry ${id} is already in ${collection} (${state}); nothing was written. Use a new id.`,
    { details: { collection, id, state } },
  );
}

function contended(collection: string, id: string): TeamkitError {
  return new TeamkitError(
    'REVISION_CONFLICT',
    `Could not add ${id} to ${collection}: it kept changing under other writers (${MAX_ATTEMPTS} tries); nothing was added. Retry.`,
    { details: { collection, id } },
  );
}

/**
 * Adding an entry, exactly and crash-safely, without a multi-key transaction:
 *
 * 1. **Stage**: create the entry key in state `staged` (text durable, invisible). Creating
 *    fails if the id exists in any state: the duplicate check.
 * 2. **Take the add slot** in the collection's ledger (compare-and-set of the ledger with
 *    `adder` set), so `admit` runs once, with no other add in between.
 * 3. **Admit** with the ledger's pending totals, exact because every change of
 *    pending-ness goes through the ledger.
 * 4. **Commit**: one ledger write adds the entry to `pending`, records the intent
 *    "staged revision r becomes unread" and frees the slot. From here the add is decided.
 * 5. **Publish**: the entry moves staged → unread by compare-and-set at revision r; if this
 *    process dies first, whoever meets the intent finishes it (the same write).
 * 6. **Close the intent** in the ledger, in the background.
 *
 * A crash before 4 leaves a staged entry that nobody sees and `removeStaleTemporaries`
 * removes; a writer stalled past the slot's stale period finds the slot taken at 4 and
 * adds nothing (`LOCK_COMPROMISED`).
 */
export function createEntryAdder(link: NatsLink, settings: AddSettings, closer: IntentCloser) {
  const sweeper = createIntentSweeper(settings.now);

  async function stage(
    access: CollectionAccess,
    collection: string,
    id: string,
    staged: Omit<EntryRecord, 'rev'>,
  ): Promise<number> {
    // `undefined`: read the key first (after settling someone else's intent on it).
    let expectSeq: number | undefined = 0;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      if (expectSeq !== undefined) {
        const seq = await access.writeEntry(id, staged, expectSeq);
        if (seq !== undefined) return seq;
      }
      expectSeq = undefined;
      const { entry, lastSeq } = await access.readEntry(id);
      if (entry === undefined) {
        expectSeq = lastSeq;
        continue;
      }
      if (entry.state !== 'staged') throw alreadyExists(collection, id, entry.state);
      // Someone else staged this id: finish their add if it was committed, else take over.
      const ledger = await access.readLedger();
      const intent = ledger.doc.open[id];
      if (intent === undefined) {
        expectSeq = entry.rev;
        continue;
      }
      const doc = copyLedger(ledger.doc);
      await settleInto(access, doc, [[id, intent]]);
      await access.writeLedger(doc, ledger.rev);
    }
    throw contended(collection, id);
  }

  async function takeSlot(
    access: CollectionAccess,
    collectionKey: string,
    collection: string,
    token: string,
    firstRead: Promise<Ledger>,
  ) {
    const observer = createLeaseObserver(settings.staleMs, settings.now);
    const signal = watchSubject(link, access.ledgerSubject);
    const deadline = Date.now() + settings.timeoutMs;
    let wait = 2;
    let read: Promise<Ledger> | undefined = firstRead;
    try {
      for (;;) {
        const ledger = await (read ?? access.readLedger());
        read = undefined;
        const adder = ledger.doc.adder;
        if (adder === undefined || observer.isStale(`${adder.h}/${adder.n}`)) {
          const doc = copyLedger(ledger.doc);
          doc.adder = { h: token, n: 0 };
          const folded = closer.fold(collectionKey, doc);
          const seq = await access.writeLedger(doc, ledger.rev);
          if (seq !== undefined) {
            folded();
            return { rev: seq, doc } satisfies Ledger;
          }
          continue;
        }
        const left = deadline - Date.now();
        if (left <= 0) {
          throw new TeamkitError(
            'LOCK_TIMEOUT',
            `Timed out after ${settings.timeoutMs} ms waiting to add to ${collection}: another writer holds its add slot; if none is running, the slot becomes stale after ${settings.staleMs} ms.`,
            { details: { collection, timeoutMs: settings.timeoutMs, staleMs: settings.staleMs } },
          );
        }
        await signal.next(Math.min(left, wait + Math.random() * wait));
        wait = Math.min(wait * 2, 50);
      }
    } finally {
      signal.close();
    }
  }

  /** Keeps the slot's heartbeat going while `fn` runs (a slow admission check). */
  async function holdingSlot<T>(access: CollectionAccess, token: string, fn: () => Promise<T>) {
    let beating: Promise<unknown> = Promise.resolve();
    const timer = setInterval(
      () => {
        beating = beating.then(async () => {
          const ledger = await access.readLedger();
          if (ledger.doc.adder?.h !== token) return;
          const doc = copyLedger(ledger.doc);
          doc.adder = { h: token, n: (ledger.doc.adder.n ?? 0) + 1 };
          await access.writeLedger(doc, ledger.rev);
        });
        beating = beating.catch(() => {});
      },
      Math.max(250, Math.floor(settings.staleMs / 4)),
    );
    try {
      return await fn();
    } finally {
      clearInterval(timer);
      await beating;
    }
  }

  async function freeSlot(access: CollectionAccess, token: string): Promise<void> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const ledger = await access.readLedger();
      if (ledger.doc.adder?.h !== token) return;
      const doc = copyLedger(ledger.doc);
      delete doc.adder;
      if ((await access.writeLedger(doc, ledger.rev)) !== undefined) return;
    }
  }

  async function commit(
    access: CollectionAccess,
    collectionKey: string,
    collection: string,
    id: string,
    start: Ledger,
    intent: Intent,
  ): Promise<void> {
    let ledger = start;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      if (ledger.doc.adder?.h !== intent.k) {
        throw new TeamkitError(
          'LOCK_COMPROMISED',
          `The add slot of ${collection} was taken over while this add of ${id} waited (no heartbeat for ${settings.staleMs} ms); nothing was added. Retry.`,
          { details: { collection, id } },
        );
      }
      const doc = copyLedger(ledger.doc);
      if (doc.pending[id] !== undefined || doc.open[id] !== undefined) {
        // Another add of the same id took over this one's staged entry and won.
        delete doc.adder;
        await access.writeLedger(doc, ledger.rev);
        throw alreadyExists(collection, id, 'unread');
      }
      await settleInto(access, doc, sweeper.due(collectionKey, doc));
      doc.pending[id] = intent.b;
      doc.open[id] = intent;
      delete doc.adder;
      const folded = closer.fold(collectionKey, doc);
      if ((await access.writeLedger(doc, ledger.rev)) !== undefined) {
        folded();
        return;
      }
      ledger = await access.readLedger();
    }
    throw contended(collection, id);
  }

  /** Records what became of an intent that could not be applied. */
  async function abandon(access: CollectionAccess, id: string, intent: Intent): Promise<void> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const ledger = await access.readLedger();
      if (ledger.doc.open[id]?.k !== intent.k) return;
      const doc = copyLedger(ledger.doc);
      recordTruth(doc, id, await settleIntent(access, id, intent));
      if ((await access.writeLedger(doc, ledger.rev)) !== undefined) return;
    }
  }

  return {
    /** See {@link createEntryAdder}. */
    async add(
      access: CollectionAccess,
      collectionKey: string,
      collection: string,
      id: string,
      body: EntryRecord['body'],
      options: AddEntryOptions,
    ): Promise<void> {
      const token = randomUUID();
      const staged = { state: 'staged' as const, changedAt: settings.now(), token, body };
      // The ledger is read while the entry is staged: one round trip for both.
      const ledgerRead = access.readLedger();
      ledgerRead.catch(() => {});
      const stagedRev = await stage(access, collection, id, staged);
      const intent: Intent = { r: stagedRev, s: 'unread', t: 0, k: token, b: body.size };
      let committed = false;
      try {
        const slot = await takeSlot(access, collectionKey, collection, token, ledgerRead);
        try {
          const admit = options.admit;
          if (admit !== undefined)
            await holdingSlot(access, token, async () => admit(totalsOf(slot.doc)));
        } catch (error) {
          await freeSlot(access, token);
          throw error;
        }
        intent.t = settings.now();
        await commit(access, collectionKey, collection, id, slot, intent);
        committed = true;
      } finally {
        if (!committed) await access.deleteEntry(id, stagedRev).catch(() => {});
      }
      const published = { state: 'unread' as const, changedAt: intent.t, token, body };
      let seq: number | undefined;
      try {
        seq = await access.writeEntry(id, published, stagedRev);
      } catch {
        // Decided already: whoever meets the intent publishes the entry.
        return;
      }
      if (seq === undefined) {
        const { entry } = await access.readEntry(id);
        if (entry?.token !== token) {
          await abandon(access, id, intent);
          throw alreadyExists(collection, id, entry?.state ?? 'removed');
        }
      }
      closer.schedule(access, collectionKey, id, token);
    },
  };
}
