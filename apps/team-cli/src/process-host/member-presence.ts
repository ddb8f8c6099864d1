import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { type Handoff, isTeamkitError } from '@teamkit/team-core';
import { HandoffSchema } from '@teamkit/team-core/schema';
import { runKeys, type TeamkitStore } from '@teamkit/team-core/storage';
import { z } from 'zod';

// The presence document itself (`markWaiting`, `readWaitingMarker`) is team-core's, so every
// process that waits for mail records it the same way. When a waiting `team inbox --wait`
// says `handoff`, this host may hand messages over directly through the member's handoff
// collection (`runtime/<run>/handoff/<member>/`), an entry collection of the store.

export type { WaitingMarker } from '@teamkit/team-core';
export { markWaiting, readWaitingMarker } from '@teamkit/team-core';

/** Drops a handoff for a waiting member; returns its id so the host can follow or take it back. */
export async function dropHandoff(
  runId: string,
  member: string,
  handoff: Handoff,
  store: TeamkitStore,
): Promise<string> {
  const id = `${Date.now()}-${randomUUID()}`;
  const text = JSON.stringify(HandoffSchema.parse(handoff));
  await store.addEntry(runKeys(runId).handoffs(member), id, text);
  return id;
}

/**
 * Waits up to `timeoutMs` for the reader to take and confirm handoff `id`: `delivered`
 * once it was shown. Not taken in time, it is taken back (moved to processed by the
 * host, so no reader can take it later): `deferred`. Taken but not confirmed in time,
 * the reader may have died before showing it: `deferred` too (the runtime keeps the
 * mail, and receivers dedupe by id).
 */
export async function awaitHandoff(
  runId: string,
  member: string,
  id: string,
  timeoutMs: number,
  store: TeamkitStore,
): Promise<'delivered' | 'deferred'> {
  const handoffs = store;
  const collection = runKeys(runId).handoffs(member);
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if ((await handoffs.entryState(collection, id)) === 'processed') return 'delivered';
    await delay(25);
  }
  const { moved } = await handoffs.moveEntries(collection, [id], ['unread'], 'processed');
  if (moved.length > 0) return 'deferred';
  return (await handoffs.entryState(collection, id)) === 'processed' ? 'delivered' : 'deferred';
}

/** Handoffs a reader took, and the call that confirms it showed them. */
export interface TakenHandoffs {
  handoffs: Handoff[];
  /** Confirms the handoffs were shown; until then the host does not count them delivered. */
  confirm(): Promise<void>;
}

/**
 * Takes every handoff waiting for a member. Each is first moved from unread to reserved,
 * which succeeds for exactly one of the host (taking it back) and the reader, so they
 * never both own one. The host answers `delivered` only after the reader confirms
 * (moves it on to processed).
 */
export async function takeHandoffs(
  runId: string,
  member: string,
  store: TeamkitStore,
): Promise<TakenHandoffs> {
  const handoffs = store;
  const collection = runKeys(runId).handoffs(member);
  const waiting = (await handoffs.listEntries(collection, 'unread')).map((entry) => entry.id);
  const taken: Handoff[] = [];
  const claimed: string[] = [];
  if (waiting.length > 0) {
    const { moved } = await handoffs.moveEntries(collection, waiting, ['unread'], 'reserved');
    for (const id of moved) {
      try {
        const text = await handoffs.readEntry(collection, id, 'reserved');
        if (text === undefined) continue;
        taken.push(HandoffSchema.parse(JSON.parse(text)));
        claimed.push(id);
      } catch (error) {
        // Unreadable: left taken but unconfirmed, so the host answers deferred.
        if (!(error instanceof SyntaxError || error instanceof z.ZodError || isTeamkitError(error)))
          throw error;
      }
    }
  }
  return {
    handoffs: taken,
    async confirm() {
      if (claimed.length > 0)
        await handoffs.moveEntries(collection, claimed, ['reserved'], 'processed');
    },
  };
}
