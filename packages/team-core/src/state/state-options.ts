import type { LockOptions } from '../storage/file-lock.js';
import type { TeamkitStore } from '../storage/teamkit-store.js';
import { parseInput } from './parse-input.js';
import { StateOptionFieldsSchema } from './state-inputs.js';

/** What every state function may be given: the store, the clock, lock tuning, the actor. */
export interface StateOptions {
  /** Where state lives: the store the caller's front door chose (file, memory, NATS). */
  store: TeamkitStore;
  /** The clock, in ms since the epoch; defaults to `Date.now`. */
  now?: () => number;
  /** Tuning for the locks the store takes on behalf of the call. */
  lock?: LockOptions;
  /** Who is acting, recorded in the event log; defaults to `"teamkit"`. */
  actor?: string;
}

/**
 * @internal Resolves the defaults of {@link StateOptions},
 * refusing option fields of the wrong type (`INVALID_INPUT`).
 */
export function resolveStateOptions(options: StateOptions): {
  store: TeamkitStore;
  now: () => number;
  lock: LockOptions | undefined;
  actor: string;
} {
  parseInput(StateOptionFieldsSchema, options, 'the options');
  return {
    store: options.store,
    now: options.now ?? Date.now,
    lock: options.lock,
    actor: options.actor ?? 'teamkit',
  };
}
