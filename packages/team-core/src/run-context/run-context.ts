import { z } from 'zod';
import { TeamkitError } from '../errors/index.js';
import type { RuntimeState } from '../schema/index.js';
import { parseInput } from '../state/parse-input.js';
import {
  appendStateEvent,
  parseRunState,
  readStateText,
  runNotFound,
  runPathsOf,
} from '../state/state-storage.js';
import { WRITABLE_RUN_STATUSES } from '../state/status-machines.js';
import type { RunEventInput } from '../storage/event-log.js';
import {
  createPathStore,
  type LockOptions,
  type PathStore,
  type RunPaths,
} from '../storage/index.js';

/** Where a run lives and the seams (store, clock, ids, lock tuning) its operations use. */
export interface RunContextOptions {
  /** The Teamkit home folder (holds `runtime/<runId>/`). */
  home: string;
  /** The run's id (a UUID). */
  runId: string;
  /** Persistence seam; defaults to the filesystem store. */
  store?: PathStore;
  /** Clock in epoch milliseconds; defaults to `Date.now`. */
  now?: () => number;
  /** Lock tuning for every lock taken on behalf of this run. */
  lock?: LockOptions;
}

// The data fields of the options; the seams (store, clock) are taken as given.
const RunContextOptionFieldsSchema = z.object({ home: z.string(), runId: z.string() });

/** A run's resolved paths and seams, plus a cached reader of its `state.json`. */
export interface RunContext {
  readonly paths: RunPaths;
  readonly store: PathStore;
  readonly now: () => number;
  readonly lock: LockOptions;
  /** Reads the run state (parsed once per distinct file content); `RUN_NOT_FOUND` if absent. */
  readState(): Promise<RuntimeState>;
  /** Reads the run state and refuses (`RUN_NOT_ACTIVE`) when the run accepts no writes. */
  writableState(): Promise<RuntimeState>;
  /** Appends one event of this run to its `events.jsonl`, stamped with the run's clock. */
  logEvent(
    actor: string,
    type: string,
    ids: readonly string[],
    data?: Record<string, unknown>,
  ): Promise<void>;
}

/** Builds a {@link RunContext}; the run id is checked before it becomes a path. */
export function createRunContext(options: RunContextOptions): RunContext {
  parseInput(RunContextOptionFieldsSchema, options, 'the run options');
  const paths = runPathsOf(options.home, options.runId);
  const store = options.store ?? createPathStore();
  const now = options.now ?? Date.now;
  let cached: { text: string; state: RuntimeState } | undefined;
  const context: RunContext = {
    paths,
    store,
    now,
    lock: options.lock ?? {},
    async readState() {
      const text = await readStateText(store, paths);
      if (text === undefined) throw runNotFound(paths);
      if (cached?.text === text) return cached.state;
      const state = parseRunState(text, paths);
      cached = { text, state };
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
      await appendStateEvent(store, paths, event);
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
