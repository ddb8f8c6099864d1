export type { Mailbox, MailboxOptions } from './create-mailbox.js';
export { createMailbox } from './create-mailbox.js';
export type { AcknowledgeOutcome, MoveOutcome } from './delivery-protocol.js';
export type { UnreadListing } from './read-inbox.js';
export type { ReclaimOutcome } from './reclaim-reservations.js';
export type { RecipientRefusal, SendMessageInput, SendMessageResult } from './send-message.js';
export type { InboxWatchOptions } from './watch-inbox.js';
