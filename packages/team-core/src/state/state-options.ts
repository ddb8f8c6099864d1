import type { LockOptions } from '../storage/file-lock.js';
import { createPathStore, type PathStore } from '../storage/path-store.js';
import { parseInput } from './parse-input.js';
import { StateOptionFieldsSchema } from './state-inputs.js';

/** What every state function may be given: the store, the clock, lock tuning, the actor. */
export interface StateOptions {
  /** Where state lives; defaults to the filesystem store. */
  store?: PathStore;
  /** The clock, in ms since the epoch; defaults to `Date.now`. */
  now?: () => number;
  /** Tuning for the state lock (`state.json.lock`). */
  lock?: LockOptions;
  /** Who is acting, recorded in `events.jsonl`; defaults to `"teamkit"`. */
  actor?: string;
}

/**
 * @internal Resolves the defaults of {@link StateOptions}, refusing option fields of the
 * wrong type (`INVALID_INPUT`).
 */
export function resolveStateOptions(options: StateOptions = {}): {
  store: PathStore;
  now: () => number;
  lock: LockOptions | undefined;
  actor: string;
} {
  parseInput(StateOptionFieldsSchema, options, 'the options');
  return {
    store: options.store ?? createPathStore(),
    now: options.now ?? Date.now,
    lock: options.lock,
    actor: options.actor ?? 'teamkit',
  };
}
