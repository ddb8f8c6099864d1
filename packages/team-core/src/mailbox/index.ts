export type {
  AcknowledgeOutcome,
  Mailbox,
  MailboxOptions,
  MoveOutcome,
  RecipientRefusal,
  ReclaimOutcome,
  SendMessageInput,
  SendMessageResult,
  UnreadListing,
} from './create-mailbox.js';
export { createMailbox } from './create-mailbox.js';
export type { InboxWatchOptions } from './watch-inbox.js';
