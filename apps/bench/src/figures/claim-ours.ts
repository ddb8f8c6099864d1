import type { ClaimStore, TaskClaimer } from '../baselines/task-claimer.js';
import type { NotAvailable } from '../not-available.js';
import { adapterNotWired, findTeamCoreFunctions } from '../team-core-api.js';

const NEEDED = ['createTask', 'claimTask', 'listTasks'] as const;

/**
 * Teamkit's task list as the claim figure's parent sees it: `seed(count)` replaces the
 * tasks under `folder` with `count` pending ones (e.g. `createTask`) and returns their
 * ids; `owners()` reads every task's owner back (e.g. `listTasks`) for the audit.
 *
 * Returns {@link NotAvailable} until team-core exports the task list and this adapter
 * is wired.
 */
export async function createOursClaimStore(_folder: string): Promise<ClaimStore | NotAvailable> {
  const api = await findTeamCoreFunctions(NEEDED);
  if ('notAvailable' in api) return api;
  return adapterNotWired('figures/claim-ours.ts', NEEDED);
}

/**
 * One claimant process's `claimTask`: resolves true only when this call won the task
 * (false when someone else holds it). Runs inside each of the 8 claim processes.
 */
export async function createOursClaimer(
  _folder: string,
  _owner: string,
): Promise<TaskClaimer | NotAvailable> {
  const api = await findTeamCoreFunctions(['claimTask']);
  if ('notAvailable' in api) return api;
  return adapterNotWired('figures/claim-ours.ts', ['claimTask']);
}
