import { randomUUID } from 'node:crypto';
import { TeamkitError } from '@teamkit/team-core';
import type { EntryMoveOutcome, EntryState, MoveEntriesOptions } from '@teamkit/team-core/storage';
import {
  type CollectionAccess,
  copyLedger,
  createIntentSweeper,
  type Intent,
  type Ledger,
  mapLimited,
  recordTruth,
  settleInto,
} from './entry-ledger.js';
import type { IntentCloser } from './intent-closer.js';
import { type EntryRecord, isPending } from './stored-record.js';

const MAX_ROUNDS = 64;

interface Candidate {
  id: string;
  entry: EntryRecord;
}

/**
 * Moving entries, exactly once each: every move is a compare-and-set of the entry at the
 * revision it was read at, so of concurrent movers of one entry exactly one lands and the
 * others see it gone from their `from` states. A move between unread and reserved touches
 * only the entry. A move in or out of the pending states (an acknowledgement, a reopen)
 * changes the admission totals too, so it is first committed to the ledger as an intent
 * (one ledger write for the whole batch), then written to the entries, then the intents
 * are closed in the background; an intent its owner did not finish is finished or undone
 * by whoever meets it, from what the entry really is.
 */
export function createEntryMover(closer: IntentCloser, now: () => number = Date.now) {
  const sweeper = createIntentSweeper(now);

  /** Commits intents for `candidates` in one ledger write; returns those committed. */
  async function commitIntents(
    access: CollectionAccess,
    collectionKey: string,
    candidates: readonly Candidate[],
    to: EntryState,
    at: number | undefined,
    firstRead: Ledger,
  ): Promise<{ committed: [Candidate, Intent][]; blocked: string[] }> {
    let read: Ledger | undefined = firstRead;
    for (let round = 0; round < MAX_ROUNDS; round += 1) {
      const ledger = read ?? (await access.readLedger());
      read = undefined;
      const doc = copyLedger(ledger.doc);
      // Another writer's intent on one of these entries is settled first; the entry will
      // then be at a new revision, so it is read again in the next round.
      const blocking = candidates.flatMap(({ id }) => {
        const intent = doc.open[id];
        return intent === undefined ? [] : [[id, intent] as const];
      });
      const blockedIds = new Set(blocking.map(([id]) => id));
      const due = sweeper
        .due(collectionKey, doc)
        .filter(([id]) => !candidates.some((candidate) => candidate.id === id));
      await settleInto(access, doc, [...blocking, ...due]);
      const committed: [Candidate, Intent][] = [];
      for (const candidate of candidates) {
        if (blockedIds.has(candidate.id)) continue;
        const { id, entry } = candidate;
        const intent: Intent = {
          r: entry.rev,
          s: to,
          t: at ?? entry.changedAt,
          k: randomUUID(),
          b: entry.body.size,
        };
        doc.open[id] = intent;
        if (isPending(to)) doc.pending[id] = entry.body.size;
        else delete doc.pending[id];
        committed.push([candidate, intent]);
      }
      const folded = closer.fold(collectionKey, doc);
      if ((await access.writeLedger(doc, ledger.rev)) !== undefined) {
        folded();
        return { committed, blocked: [...blockedIds] };
      }
    }
    throw contended(candidates.map(({ id }) => id));
  }

  /** Closes applied intents and undoes failed ones in the ledger. */
  async function closeIntents(
    access: CollectionAccess,
    outcomes: readonly { id: string; intent: Intent; failedAs?: EntryRecord | undefined | null }[],
  ): Promise<void> {
    for (let round = 0; round < MAX_ROUNDS; round += 1) {
      const ledger = await access.readLedger();
      const doc = copyLedger(ledger.doc);
      let changed = false;
      for (const { id, intent, failedAs } of outcomes) {
        if (doc.open[id]?.k !== intent.k) continue;
        changed = true;
        if (failedAs === null) delete doc.open[id];
        else recordTruth(doc, id, failedAs);
      }
      if (!changed || (await access.writeLedger(doc, ledger.rev)) !== undefined) return;
    }
  }

  async function moveAcross(
    access: CollectionAccess,
    collectionKey: string,
    candidates: readonly Candidate[],
    to: EntryState,
    at: number | undefined,
    ledger: Ledger,
  ): Promise<{ moved: string[]; retry: string[] }> {
    const { committed, blocked } = await commitIntents(
      access,
      collectionKey,
      candidates,
      to,
      at,
      ledger,
    );
    // `null`: applied; an entry (or undefined): failed, and this is what it really is.
    const outcomes = await mapLimited(committed, async ([{ id, entry }, intent]) => {
      const applied = { state: to, changedAt: intent.t, token: intent.k, body: entry.body };
      if ((await access.writeEntry(id, applied, entry.rev)) !== undefined) {
        return { id, intent, failedAs: null };
      }
      const latest = (await access.readEntry(id)).entry;
      return { id, intent, failedAs: latest?.token === intent.k ? null : latest };
    });
    const failed = outcomes.filter((outcome) => outcome.failedAs !== null);
    if (failed.length > 0) await closeIntents(access, failed);
    const applied = outcomes.filter((outcome) => outcome.failedAs === null);
    for (const { id, intent } of applied) closer.schedule(access, collectionKey, id, intent.k);
    return {
      moved: applied.map(({ id }) => id),
      retry: [...blocked, ...failed.map(({ id }) => id)],
    };
  }

  return {
    /** See {@link createEntryMover}. */
    async move(
      access: CollectionAccess,
      collectionKey: string,
      ids: readonly string[],
      from: readonly EntryState[],
      to: EntryState,
      options: MoveEntriesOptions,
    ): Promise<EntryMoveOutcome> {
      const unique = [...new Set(ids)];
      const moved = new Set<string>();
      const missing = new Set<string>();
      let work = unique;
      for (let round = 0; work.length > 0; round += 1) {
        if (round >= MAX_ROUNDS) throw contended(work);
        const [reads, ledger] = await Promise.all([
          mapLimited(work, (id) => access.readEntry(id)),
          access.readLedger(),
        ]);
        const retry: string[] = [];
        // A decided change not yet written (a committed add, or another mover's move that
        // its owner has not finished) is finished first; the entry is then read again.
        const decided = work.flatMap((id) => {
          const intent = ledger.doc.open[id];
          return intent === undefined ? [] : [[id, intent] as const];
        });
        if (decided.length > 0) {
          const doc = copyLedger(ledger.doc);
          await settleInto(access, doc, decided);
          await access.writeLedger(doc, ledger.rev);
          retry.push(...decided.map(([id]) => id));
        }
        const within: Candidate[] = [];
        const across: Candidate[] = [];
        work.forEach((id, index) => {
          if (ledger.doc.open[id] !== undefined) return;
          const entry = reads[index]?.entry;
          if (entry === undefined || entry.state === 'staged' || !from.includes(entry.state)) {
            missing.add(id);
            return;
          }
          // Checked against the revision the move's compare-and-set is conditional on: an
          // entry changed since is read again, and checked again, in the next round.
          const { changedAtOrBefore } = options;
          if (changedAtOrBefore !== undefined && entry.changedAt > changedAtOrBefore) {
            missing.add(id);
            return;
          }
          (isPending(entry.state) === isPending(to) ? within : across).push({ id, entry });
        });
        await mapLimited(within, async ({ id, entry }) => {
          const next = {
            state: to,
            changedAt: options.at ?? entry.changedAt,
            token: randomUUID(),
            body: entry.body,
          };
          if ((await access.writeEntry(id, next, entry.rev)) !== undefined) moved.add(id);
          else retry.push(id);
        });
        if (across.length > 0) {
          // The ledger read with the entries is still current unless someone wrote it since;
          // the commit's compare-and-set finds out.
          const outcome = await moveAcross(access, collectionKey, across, to, options.at, ledger);
          for (const id of outcome.moved) moved.add(id);
          retry.push(...outcome.retry);
        }
        work = retry;
      }
      return {
        moved: unique.filter((id) => moved.has(id)),
        missing: unique.filter((id) => missing.has(id) && !moved.has(id)),
      };
    },
  };
}

function contended(ids: readonly string[]): TeamkitError {
  return new TeamkitError(
    'REVISION_CONFLICT',
    `Could not move ${ids.join(', ')}: they kept changing under other writers (${MAX_ROUNDS} rounds). Some may have moved; list the entries and retry.`,
    { details: { ids: ids.join(',') } },
  );
}
