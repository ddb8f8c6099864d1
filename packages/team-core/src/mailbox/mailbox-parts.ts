import type { RunContext } from '../run-context/index.js';
import { assertRunWritable } from '../run-context/index.js';
import type { RuntimeState } from '../schema/index.js';
import { findParticipant } from '../state/run-members.js';
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
 * Reads the run state and checks that `member` takes part in the run, as a member or as
 * the user (`UNKNOWN_MEMBER`); with `write`, also that the run accepts writes
 * (`RUN_NOT_ACTIVE`). `acknowledge` also accepts a `completed` run: its mail stays
 * readable, and its readers may still mark what they read.
 */
export async function stateForInbox(
  parts: MailboxParts,
  member: string,
  write: boolean | 'acknowledge',
): Promise<RuntimeState> {
  const state = await parts.run.readState();
  if (write === true || (write === 'acknowledge' && state.status !== 'completed'))
    assertRunWritable(state);
  findParticipant(state, member);
  return state;
}
