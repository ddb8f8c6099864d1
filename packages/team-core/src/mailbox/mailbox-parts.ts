import type { RunContext } from '../run-context/index.js';
import type { RuntimeState } from '../schema/index.js';
import { findMember } from '../state/run-members.js';
import type { InboxStore } from './inbox-store.js';
import type { MessageBudget } from './message-budget.js';

/** What every mailbox operation works with: the run, its inboxes, the message budget, ids. */
export interface MailboxParts {
  readonly run: RunContext;
  readonly inboxes: InboxStore;
  readonly budget: MessageBudget;
  readonly newId: () => string;
}

/**
 * Reads the run state and checks that `member` is in the run (`UNKNOWN_MEMBER`); with
 * `write`, also that the run accepts writes (`RUN_NOT_ACTIVE`).
 */
export async function stateForInbox(
  parts: MailboxParts,
  member: string,
  write: boolean,
): Promise<RuntimeState> {
  const state = write ? await parts.run.writableState() : await parts.run.readState();
  findMember(state, member);
  return state;
}
