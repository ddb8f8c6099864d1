import type { WatchSubject } from '../baselines/watch-subject.js';
import type { NotAvailable } from '../not-available.js';
import { adapterNotWired, findTeamCoreFunctions } from '../team-core-api.js';

const NEEDED = ['sendMessage', 'watchInbox'] as const;

/**
 * Teamkit's send -> watch latency: `start(onArrival)` calls `watchInbox` on one
 * recipient under `folder` and reports each new message's id; `send(id)` takes
 * `performance.now()`, then calls `sendMessage` (so the figure measures send ->
 * callback) and resolves with that time. The id may be carried in the message text if
 * `sendMessage` assigns its own ids.
 *
 * Returns {@link NotAvailable} until team-core exports the mailbox watch and this
 * adapter is wired.
 */
export async function createOursWatchSubject(
  _folder: string,
): Promise<WatchSubject | NotAvailable> {
  const api = await findTeamCoreFunctions(NEEDED);
  if ('notAvailable' in api) return api;
  return adapterNotWired('figures/watch-ours.ts', NEEDED);
}
