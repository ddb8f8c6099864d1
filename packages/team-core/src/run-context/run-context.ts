import { z } from 'zod';
import { TeamkitError } from '../errors/index.js';
import type { RuntimeState } from '../schema/index.js';
import { parseInput } from '../state/parse-input.js';
import { StoreArgument } from '../state/state-inputs.js';
import { appendStateEvent, parseRunState, runKeysOf, runNotFound } from '../state/state-storage.js';
import { WRITABLE_RUN_STATUSES } from '../state/status-machines.js';
import type { RunEventInput } from '../storage/event-log.js';
import type { LockOptions } from '../storage/file-lock.js';
import type { RunKeys } from '../storage/run-keys.js';
import type { StoreRevision, TeamkitStore } from '../storage/teamkit-store.js';

/** Where a run lives and the seams (store, clock, lock tuning) its operations use. */
export interface RunContextOptions {
  /** The Teamkit home folder (the file store's root; holds `runtime/<runId>/`). */
  home: string;
  /** The run's id (a UUID). */
  runId: string;
  /** Where the run's state lives (required: the front door chose it). */
  store: TeamkitStore;
  /** Clock in epoch milliseconds; defaults to `Date.now`. */
  now?: () => number;
  /** Lock tuning for every lock taken on behalf of this run. */
  lock?: LockOptions;
}

// The data fields of the options; the seams (store, clock) are taken as given.
const RunContextOptionFieldsSchema = z.object({
  home: z.string(),
  runId: z.string(),
  store: StoreArgument,
});

/** A run's keys and seams, plus a cached reader of its state. */
export interface RunContext {
  /** The Teamkit home: per-machine paths (worktrees, logs, prompts) hang off it. */
  readonly home: string;
  /** The run's id. */
  readonly runId: string;
  /** The run's store keys. */
  readonly keys: RunKeys;
  readonly store: TeamkitStore;
  readonly now: () => number;
  readonly lock: LockOptions;
  /** Reads the run state (parsed once per revision and text); `RUN_NOT_FOUND` if absent. */
  readState(): Promise<RuntimeState>;
  /** Reads the run state and refuses (`RUN_NOT_ACTIVE`) when the run accepts no writes. */
  writableState(): Promise<RuntimeState>;
  /** Appends one event of this run to its event log, stamped with the run's clock. */
  logEvent(
    actor: string,
    type: string,
    ids: readonly string[],
    data?: Record<string, unknown>,
  ): Promise<void>;
}

/** Builds a {@link RunContext}; the run id is checked before it becomes a key. */
export function createRunContext(options: RunContextOptions): RunContext {
  parseInput(RunContextOptionFieldsSchema, options, 'the run options');
  const keys = runKeysOf(options.runId);
  const { store } = options;
  const now = options.now ?? Date.now;
  // Keyed on the revision and the text: a file edited in place by hand keeps its revision.
  let cached: { revision: StoreRevision; text: string; state: RuntimeState } | undefined;
  const context: RunContext = {
    home: options.home,
    runId: keys.runId,
    keys,
    store,
    now,
    lock: options.lock ?? {},
    async readState() {
      const stored = await store.read(keys.state);
      if (stored === undefined) throw runNotFound(keys);
      if (cached?.revision === stored.revision && cached.text === stored.text) return cached.state;
      const state = parseRunState(stored.text, keys);
      cached = { revision: stored.revision, text: stored.text, state };
      return state;
    },
    async writableState() {
      const state = await context.readState();
      assertRunWritable(state);
      return state;
    },
    async logEvent(actor, type, ids, data) {
      const event: Omit<RunEventInput, 'runId'> = {
        actor,
        type,
        ids: [...ids],
        at: now(),
        ...(data === undefined ? {} : { data }),
      };
      await appendStateEvent(store, keys, event);
    },
  };
  return context;
}

/** Refuses (`RUN_NOT_ACTIVE`) when the run no longer accepts writes. */
export function assertRunWritable(state: RuntimeState): void {
  if (!WRITABLE_RUN_STATUSES.includes(state.status)) {
    throw new TeamkitError(
      'RUN_NOT_ACTIVE',
      `Run ${state.runId} is ${state.status} and accepts no writes.`,
      { details: { runId: state.runId, status: state.status } },
    );
  }
}
