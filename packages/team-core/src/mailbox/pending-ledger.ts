import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { PathStore } from '../storage/index.js';
import { reservedIdOf, unreadIdOf } from './inbox-layout.js';

/** The file in each inbox whose random token changes before every change to the inbox. */
export const INBOX_VERSION_FILE = '.version';

const TOKEN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** What this process last knew of an inbox: its pending files' sizes, as of `token`. */
interface InboxView {
  token: string;
  sizes: Map<string, number>;
  total: number;
}

/**
 * Knows how many bytes each inbox holds unread or reserved (the unread cap's measure)
 * without listing the inbox on every send.
 *
 * The protocol, for every caller holding the inbox's lock: before any change to an
 * inbox (a message linked in, a message moved), write a fresh random token to
 * `<inbox>/.version` ({@link PendingLedger.changing}). A process reuses its view of an
 * inbox only while that file still holds the token of its view; any other content
 * (another process changed the inbox, the file is empty or gone) makes it list the inbox
 * again. Because the token is written before the change, a process that dies between the
 * two leaves every other view invalid, never stale; one that dies in the middle of the
 * write leaves old and new bytes mixed, which matches no view, or the old token
 * untouched, and then it made no change either. Files added or removed by hand, without
 * the lock, are counted at the next listing.
 */
export interface PendingLedger {
  /** Pending bytes of `inbox`; call under the inbox's lock. */
  pendingBytes(inbox: string): Promise<number>;
  /** Marks `inbox` as changing; call under its lock, before the change. Returns the new token. */
  changing(inbox: string): Promise<string>;
  /**
   * Records a message file linked into `inbox`, in the same hold of the lock as the
   * {@link PendingLedger.pendingBytes} and {@link PendingLedger.changing} (which returned
   * `token`) before it: this process's view follows the change instead of listing again.
   */
  added(inbox: string, token: string, name: string, bytes: number): void;
  /** Forgets this process's view of `inbox` (after a change it did not follow). */
  forget(inbox: string): void;
}

/** Creates the {@link PendingLedger} of one mailbox instance. */
export function createPendingLedger(store: PathStore): PendingLedger {
  const views = new Map<string, InboxView>();
  const versionFile = (inbox: string) => path.join(inbox, INBOX_VERSION_FILE);

  async function list(
    inbox: string,
    known: Map<string, number>,
  ): Promise<Omit<InboxView, 'token'>> {
    const sizes = new Map<string, number>();
    let total = 0;
    for (const name of await store.list(inbox)) {
      if (unreadIdOf(name) === undefined && reservedIdOf(name) === undefined) continue;
      // A pending message file never changes (linked once, then only renamed between
      // its unread and reserved names), so a size seen once stays right.
      let size = known.get(name);
      if (size === undefined) {
        const info = await store.stat(path.join(inbox, name));
        if (info === undefined) continue;
        size = info.size;
      }
      sizes.set(name, size);
      total += size;
    }
    return { sizes, total };
  }

  const ledger: PendingLedger = {
    async pendingBytes(inbox) {
      const text = await store.readText(versionFile(inbox));
      const token = text !== undefined && TOKEN.test(text) ? text : undefined;
      const view = views.get(inbox);
      if (view !== undefined && token !== undefined && view.token === token) return view.total;
      // A missing or torn token matches no view; the next change writes a good one.
      const fresh = await list(inbox, view?.sizes ?? new Map());
      views.set(inbox, { ...fresh, token: token ?? '' });
      return fresh.total;
    },
    async changing(inbox) {
      const token = randomUUID();
      await store.writeVolatile(versionFile(inbox), token);
      return token;
    },
    added(inbox, token, name, bytes) {
      const view = views.get(inbox);
      if (view === undefined) return;
      view.sizes.set(name, bytes);
      view.total += bytes;
      view.token = token;
    },
    forget(inbox) {
      views.delete(inbox);
    },
  };
  return ledger;
}
