import { TeamkitError } from '../errors/index.js';
import { findParticipant } from '../state/run-members.js';
import type { MailboxParts } from './mailbox-parts.js';

/** The outcome of {@link reclaimStaleReservations}. */
export interface ReclaimOutcome {
  reclaimed: { member: string; messageId: string }[];
  /** Leftover `.tmp-*` files of crashed senders that were removed. */
  removedTempFiles: number;
}

/**
 * Returns reservations older than `olderThanMs` (by the run's clock) to unread, so a
 * delivery a crashed host abandoned happens again, and removes what crashed senders left.
 */
export async function reclaimStaleReservations(
  parts: MailboxParts,
  olderThanMs: number,
  member?: string,
): Promise<ReclaimOutcome> {
  if (!Number.isFinite(olderThanMs) || olderThanMs < 0) {
    throw new TeamkitError(
      'INVALID_INPUT',
      `olderThanMs must be a non-negative number of milliseconds.`,
      { details: { olderThanMs } },
    );
  }
  const { run, inboxes } = parts;
  const state = await run.writableState();
  if (member !== undefined) findParticipant(state, member);
  const members = member !== undefined ? [member] : await inboxes.listInboxOwners();
  const cutoff = run.now() - olderThanMs;
  const outcome: ReclaimOutcome = { reclaimed: [], removedTempFiles: 0 };
  for (const name of members) {
    outcome.removedTempFiles += await inboxes.removeStaleTemporaries(name, olderThanMs);
    const stale = (await inboxes.listReservations(name))
      .filter((reservation) => reservation.changedAt <= cutoff)
      .map((reservation) => reservation.id);
    // Checked again under the inbox's lock: a reservation renewed meanwhile stays.
    const { moved } = await inboxes.moveMessages(name, stale, ['reserved'], 'unread', {
      changedAtOrBefore: cutoff,
    });
    for (const messageId of moved) outcome.reclaimed.push({ member: name, messageId });
  }
  if (outcome.reclaimed.length > 0) {
    await run.logEvent(
      'teamkit',
      'message.reclaimed',
      outcome.reclaimed.map((r) => r.messageId),
      { members: [...new Set(outcome.reclaimed.map((r) => r.member))] },
    );
  }
  return outcome;
}
