import type { NotAvailable } from '../not-available.js';
import { adapterNotWired, findTeamCoreFunctions } from '../team-core-api.js';
import type { ReadyQueueTask } from './ready.js';

/** Teamkit's task list as the ready-queue figure uses it. */
export interface ReadySubject {
  /** Writes `tasks` (ids, dependencies, statuses as given) under the folder; not timed. */
  seed(tasks: readonly ReadyQueueTask[]): Promise<void>;
  /** Calls `readyTasks` once and resolves with how many tasks are ready. */
  readyTasks(): Promise<number>;
  close(): Promise<void>;
}

const NEEDED = ['createTask', 'readyTasks'] as const;

/**
 * Teamkit's ready queue over a large task list under `folder`. Returns
 * {@link NotAvailable} until team-core exports the task list and this adapter is wired.
 */
export async function createOursReadySubject(
  _folder: string,
): Promise<ReadySubject | NotAvailable> {
  const api = await findTeamCoreFunctions(NEEDED);
  if ('notAvailable' in api) return api;
  return adapterNotWired('figures/ready-ours.ts', NEEDED);
}
