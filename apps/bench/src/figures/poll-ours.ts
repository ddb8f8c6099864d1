import type { PollSubject } from '../baselines/poll-subject.js';
import type { NotAvailable } from '../not-available.js';
import { adapterNotWired, findTeamCoreFunctions } from '../team-core-api.js';

const NEEDED = ['sendMessage', 'listUnread'] as const;

/**
 * Teamkit's unread poll: `seed(unread, processed)` fills one recipient's inbox under
 * `folder` (send, then acknowledge `processed` of them) and `listUnread()` calls
 * `listUnread` for that recipient and resolves with the count.
 *
 * Returns {@link NotAvailable} until team-core exports the mailbox and this adapter is
 * wired.
 */
export async function createOursPollSubject(_folder: string): Promise<PollSubject | NotAvailable> {
  const api = await findTeamCoreFunctions(NEEDED);
  if ('notAvailable' in api) return api;
  return adapterNotWired('figures/poll-ours.ts', NEEDED);
}
