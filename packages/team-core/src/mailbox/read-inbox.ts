import { TeamkitError } from '../errors/index.js';
import { type Message, MessageSchema } from '../schema/index.js';
import { type DocumentProblem, parseDocument, toDocumentProblem } from '../storage/index.js';
import { compareByArrival } from './inbox-layout.js';
import type { InboxStore, MessageState } from './inbox-store.js';

/** Unread messages, oldest first, and any unreadable files left in place. */
export interface UnreadListing {
  messages: Message[];
  problems: DocumentProblem[];
}

/**
 * Reads one stored message of `member`: the message, a problem when the file is torn or
 * invalid or is not where it says it belongs (another id, recipient or run; it is left in
 * place), or `undefined` when it is not in `state`.
 */
export async function readStoredMessage(
  inboxes: InboxStore,
  member: string,
  messageId: string,
  state: MessageState,
): Promise<Message | DocumentProblem | undefined> {
  const stored = await inboxes.readMessage(member, messageId, state);
  if (stored === undefined) return undefined;
  const { text, where } = stored;
  try {
    const message = parseDocument(text, MessageSchema, where);
    if (
      message.messageId === messageId &&
      message.to === member &&
      message.runId === inboxes.runId
    ) {
      return message;
    }
    const misplaced = (
      [
        ['messageId', messageId],
        ['to', member],
        ['runId', inboxes.runId],
      ] as const
    ).filter(([field, expected]) => message[field] !== expected);
    const fields = misplaced.map(
      ([field, expected]) =>
        `${field} ${JSON.stringify(message[field])} (expected ${JSON.stringify(expected)})`,
    );
    throw new TeamkitError(
      'CORRUPT_DOCUMENT',
      `${where} does not belong where it lies: ${fields.join(', ')}; it was left in place. Move it aside.`,
      { details: { path: where, fields: misplaced.map(([field]) => field) } },
    );
  } catch (error) {
    return toDocumentProblem(error, where);
  }
}

/** True when a read found a valid message (not a problem, not absent). */
export function isMessage(read: Message | DocumentProblem | undefined): read is Message {
  return read !== undefined && 'messageId' in read;
}

/** The unread messages of `member`, sorted by (timestamp, messageId), and its unreadable files. */
export async function listUnreadMessages(
  inboxes: InboxStore,
  member: string,
): Promise<UnreadListing> {
  const listing: UnreadListing = { messages: [], problems: [] };
  for (const id of await inboxes.listMessageIds(member, 'unread')) {
    const read = await readStoredMessage(inboxes, member, id, 'unread');
    if (read === undefined) continue;
    if (isMessage(read)) listing.messages.push(read);
    else listing.problems.push(read);
  }
  listing.messages.sort(compareByArrival);
  return listing;
}
