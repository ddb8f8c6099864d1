import type { Message } from '../schema/index.js';
import { assertMessageIds } from './inbox-layout.js';
import type { MessageState } from './inbox-store.js';
import { type MailboxParts, stateForInbox } from './mailbox-parts.js';
import { isMessage, readStoredMessage } from './read-inbox.js';

/** Which ids a delivery-protocol call moved and which it did not find in the expected place. */
export interface MoveOutcome {
  moved: string[];
  missing: string[];
}

/** The outcome of {@link acknowledgeMessages}. */
export interface AcknowledgeOutcome {
  /** Moved to `processed/` by this call. */
  acknowledged: string[];
  /** Already in `processed/` (acknowledging twice is fine). */
  alreadyProcessed: string[];
  /** Not in this inbox at all. */
  missing: string[];
}

async function move(
  parts: MailboxParts,
  member: string,
  messageIds: readonly string[],
  from: MessageState,
  to: MessageState,
): Promise<MoveOutcome> {
  assertMessageIds(messageIds);
  await stateForInbox(parts, member, true);
  return parts.inboxes.moveMessages(member, messageIds, [from], to, {
    ...(to === 'reserved' ? { at: parts.run.now() } : {}),
  });
}

/** Hides unread messages while a host delivers them; returns them as read after the move. */
export async function reserveMessages(
  parts: MailboxParts,
  member: string,
  messageIds: readonly string[],
): Promise<{ reserved: Message[]; missing: string[] }> {
  const outcome = await move(parts, member, messageIds, 'unread', 'reserved');
  const reserved: Message[] = [];
  const missing = [...outcome.missing];
  for (const id of outcome.moved) {
    const read = await readStoredMessage(parts.inboxes, member, id, 'reserved');
    if (isMessage(read)) reserved.push(read);
    else missing.push(id);
  }
  return { reserved, missing };
}

/** Marks reserved messages delivered (moves them to `processed/`). */
export async function commitMessages(
  parts: MailboxParts,
  member: string,
  messageIds: readonly string[],
): Promise<MoveOutcome> {
  const outcome = await move(parts, member, messageIds, 'reserved', 'processed');
  if (outcome.moved.length > 0) {
    await parts.run.logEvent(member, 'message.acknowledged', outcome.moved, { via: 'commit' });
  }
  return outcome;
}

/** Returns reserved messages to unread after a failed delivery. */
export function releaseMessages(
  parts: MailboxParts,
  member: string,
  messageIds: readonly string[],
): Promise<MoveOutcome> {
  return move(parts, member, messageIds, 'reserved', 'unread');
}

/** Moves unread or reserved messages to `processed/`; idempotent. */
export async function acknowledgeMessages(
  parts: MailboxParts,
  member: string,
  messageIds: readonly string[],
): Promise<AcknowledgeOutcome> {
  assertMessageIds(messageIds);
  await stateForInbox(parts, member, 'acknowledge');
  const outcome: AcknowledgeOutcome = { acknowledged: [], alreadyProcessed: [], missing: [] };
  if (messageIds.length === 0) return outcome;
  const moved = await parts.inboxes.moveMessages(
    member,
    messageIds,
    ['unread', 'reserved'],
    'processed',
  );
  outcome.acknowledged = moved.moved;
  for (const id of moved.missing) {
    if ((await parts.inboxes.messageState(member, id)) === 'processed') {
      outcome.alreadyProcessed.push(id);
    } else outcome.missing.push(id);
  }
  if (outcome.acknowledged.length > 0) {
    await parts.run.logEvent(member, 'message.acknowledged', outcome.acknowledged);
  }
  return outcome;
}
