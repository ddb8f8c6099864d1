import { type CollectionAccess, copyLedger, type LedgerDocument } from './entry-ledger.js';
import type { NatsLink } from './nats-link.js';

const MAX_ATTEMPTS = 64;

interface Waiting {
  access: CollectionAccess;
  /** Applied intents to close: entry id -> the intent's token. */
  intents: Map<string, string>;
  timer: NodeJS.Timeout;
}

/**
 * Closes intents this process applied, without a ledger write of their own when it can:
 * the next ledger write this process makes in the same collection (the next add, say)
 * drops them as part of its own write; only what is still open after `delayMs` gets a
 * write of its own, in the background. Closing is housekeeping: an applied intent left
 * open is recognised as applied by whoever meets it.
 */
export function createIntentCloser(link: NatsLink, delayMs = 200) {
  const waiting = new Map<string, Waiting>();

  async function closeNow(collectionKey: string): Promise<void> {
    const entry = waiting.get(collectionKey);
    if (entry === undefined) return;
    waiting.delete(collectionKey);
    clearTimeout(entry.timer);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const ledger = await entry.access.readLedger();
      const doc = copyLedger(ledger.doc);
      let changed = false;
      for (const [id, token] of entry.intents) {
        if (doc.open[id]?.k !== token) continue;
        delete doc.open[id];
        changed = true;
      }
      if (!changed || (await entry.access.writeLedger(doc, ledger.rev)) !== undefined) return;
    }
  }

  return {
    /** Notes an intent this process applied, to be closed later. */
    schedule(access: CollectionAccess, collectionKey: string, id: string, token: string): void {
      let entry = waiting.get(collectionKey);
      if (entry === undefined) {
        const timer = setTimeout(() => link.track(closeNow(collectionKey)), delayMs);
        timer.unref();
        entry = { access, intents: new Map(), timer };
        waiting.set(collectionKey, entry);
      }
      entry.intents.set(id, token);
    },

    /**
     * Drops the waiting intents from a ledger document about to be written; call the
     * returned function once that write landed.
     */
    fold(collectionKey: string, doc: LedgerDocument): () => void {
      const entry = waiting.get(collectionKey);
      if (entry === undefined) return () => {};
      const dropped: string[] = [];
      for (const [id, token] of entry.intents) {
        if (doc.open[id]?.k !== token) continue;
        delete doc.open[id];
        dropped.push(id);
      }
      return () => {
        for (const id of dropped) entry.intents.delete(id);
      };
    },

    /** Closes everything still waiting (when the store closes). */
    async flush(): Promise<void> {
      await Promise.all([...waiting.keys()].map((collectionKey) => closeNow(collectionKey)));
    },
  };
}

/** The closer of one store. */
export type IntentCloser = ReturnType<typeof createIntentCloser>;
