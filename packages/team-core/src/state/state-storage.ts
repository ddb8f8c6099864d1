import { z } from 'zod';
import { TeamkitError } from '../errors/index.js';
import { RUNTIME_PREFIX } from '../home/list-run-ids.js';
import { type RuntimeState, RuntimeStateSchema } from '../schema/runtime-state.js';
import { parseDocument } from '../storage/document.js';
import { appendRunEvent, type RunEventInput } from '../storage/event-log.js';
import { type RunKeys, runKeys } from '../storage/run-keys.js';
import { createDocument, updateDocument } from '../storage/store-documents.js';
import type { TeamkitStore } from '../storage/teamkit-store.js';
import { parseInput } from './parse-input.js';

// The one listing of runs, shared with the cheap `home` entry.
export { listRunIds } from '../home/list-run-ids.js';

// Every access of the run state module to persisted state goes through this file.

/** How old a leftover of a cut-short removal must be before a sweep removes it. */
const LEFTOVER_AGE_MS = 10 * 60_000;

/**
 * The keys of run `runId`; refuses a run id that is not a string (`INVALID_INPUT`) or
 * not a UUID (`PATH_TRAVERSAL`).
 */
export function runKeysOf(runId: string): RunKeys {
  parseInput(z.string(), runId, 'the run id');
  return runKeys(runId);
}

/**
 * Parses the text of a run's state (see `parseDocument` for the errors). A document
 * whose `runId` is not the run of its key is `CORRUPT_DOCUMENT`: acting on it would
 * change what belongs to another run.
 */
export function parseRunState(text: string, keys: RunKeys): RuntimeState {
  const state = parseDocument(text, RuntimeStateSchema, keys.state);
  if (state.runId !== keys.runId) {
    throw new TeamkitError(
      'CORRUPT_DOCUMENT',
      `${keys.state} holds run ${state.runId}, not run ${keys.runId}; it was left in place. Move it back to the folder of its run or aside.`,
      { details: { path: keys.state, runId: keys.runId, documentRunId: state.runId } },
    );
  }
  return state;
}

/** A run's state, checked against its key; `undefined` when the run has none. */
export async function readStateDocument(
  store: TeamkitStore,
  keys: RunKeys,
): Promise<RuntimeState | undefined> {
  const stored = await store.read(keys.state);
  return stored === undefined ? undefined : parseRunState(stored.text, keys);
}

/** Writes the first state of a run; `ALREADY_EXISTS` when the run id is taken. */
export async function createStateDocument(
  store: TeamkitStore,
  keys: RunKeys,
  state: RuntimeState,
): Promise<void> {
  await createDocument(store, keys.state, RuntimeStateSchema, state);
}

/** What {@link updateStateDocument} does with the state it read. */
export interface StateChange {
  /**
   * The next state, or `undefined` to write nothing. May throw a typed error to refuse.
   * It may run more than once (after another writer changed the state meanwhile), so it
   * must be a pure function of the state it is given.
   */
  next(before: RuntimeState): Promise<RuntimeState | undefined>;
  /** Runs once, after `next`'s state was written over `before`. */
  written(before: RuntimeState, after: RuntimeState): Promise<void>;
}

/**
 * Reads a run's state, lets `change` decide the next one and writes it by compare-and-set
 * at the revision read; when another writer got there first, reads again and asks
 * `change` again. `RUN_NOT_FOUND` when the run has no state. Resolves to the state now
 * stored.
 */
export async function updateStateDocument(
  store: TeamkitStore,
  keys: RunKeys,
  change: StateChange,
): Promise<RuntimeState> {
  let updated: Awaited<ReturnType<typeof updateDocument<typeof RuntimeStateSchema>>>;
  try {
    updated = await updateDocument(store, keys.state, RuntimeStateSchema, async (current) => {
      const before = checkedRun(current, keys);
      return change.next(before);
    });
  } catch (error) {
    if (error instanceof TeamkitError && error.code === 'DOCUMENT_NOT_FOUND') {
      throw runNotFound(keys);
    }
    throw error;
  }
  if (updated.changed) await change.written(updated.previous, updated.value);
  return updated.value;
}

function checkedRun(state: RuntimeState, keys: RunKeys): RuntimeState {
  if (state.runId === keys.runId) return state;
  return parseRunState(JSON.stringify(state), keys);
}

/** `RUN_NOT_FOUND` for a run without a state document. */
export function runNotFound(keys: RunKeys): TeamkitError {
  return new TeamkitError('RUN_NOT_FOUND', `No team run ${keys.runId} (no ${keys.state}).`, {
    details: { runId: keys.runId },
  });
}

/** Appends one event to the run's event log. */
export function appendStateEvent(
  store: TeamkitStore,
  keys: RunKeys,
  event: Omit<RunEventInput, 'runId'>,
): Promise<void> {
  return appendRunEvent(store, keys.events, { runId: keys.runId, ...event });
}

/**
 * Removes a run's folder (the store renames it aside first, so a removal cut short
 * leaves no half-removed run behind). False when the run was already gone.
 */
export async function removeRunFolder(store: TeamkitStore, runId: string): Promise<boolean> {
  const keys = runKeysOf(runId);
  if ((await store.stat(keys.root)) === undefined) return false;
  await store.removeTree(keys.root);
  return true;
}

/** Removes what earlier removals cut short left behind; returns how many. */
export function removeRunFolderLeftovers(store: TeamkitStore): Promise<number> {
  return store.removeStaleTemporaries(RUNTIME_PREFIX, LEFTOVER_AGE_MS);
}
