import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { TeamkitError } from '../errors/index.js';
import { RunIdSchema } from '../schema/names.js';
import { type RuntimeState, RuntimeStateSchema } from '../schema/runtime-state.js';
import { containedPath } from '../storage/contained-path.js';
import { parseDocument } from '../storage/document.js';
import { appendRunEvent, type RunEventInput } from '../storage/event-log.js';
import type { LockOptions } from '../storage/file-lock.js';
import type { PathStore } from '../storage/path-store.js';
import { type RunPaths, runPaths } from '../storage/teamkit-home.js';
import { withIoErrors } from './io-error.js';
import { parseInput } from './parse-input.js';

// Every access of the run state module to persisted state goes through this file, so
// moving the module onto another store changes these functions and little else.

const SWEPT_PREFIX = '.swept-';

/**
 * The paths of run `runId` under `home`; refuses arguments that are not strings
 * (`INVALID_INPUT`) and run ids that are not UUIDs (`PATH_TRAVERSAL`).
 */
export function runPathsOf(home: string, runId: string): RunPaths {
  parseInput(z.string(), home, 'the Teamkit home');
  parseInput(z.string(), runId, 'the run id');
  return runPaths(home, runId);
}

function runtimeFolderOf(home: string): string {
  parseInput(z.string(), home, 'the Teamkit home');
  return containedPath(home, 'runtime');
}

/**
 * Parses the text of a run's `state.json` (see `parseDocument` for the errors). A document
 * whose `runId` is not the run of its folder is `CORRUPT_DOCUMENT`: acting on it would
 * change what belongs to another run.
 */
export function parseRunState(text: string, paths: RunPaths): RuntimeState {
  const state = parseDocument(text, RuntimeStateSchema, paths.state);
  if (state.runId !== paths.runId) {
    throw new TeamkitError(
      'CORRUPT_DOCUMENT',
      `${paths.state} holds run ${state.runId}, not run ${paths.runId}; it was left in place. Move it back to the folder of its run or aside.`,
      { details: { path: paths.state, runId: paths.runId, documentRunId: state.runId } },
    );
  }
  return state;
}

/** The raw text of a run's `state.json`; `undefined` when the run has none. */
export function readStateText(store: PathStore, paths: RunPaths): Promise<string | undefined> {
  return withIoErrors('read', paths.state, () => store.readText(paths.state));
}

/** A run's state, checked against its folder; `undefined` when the run has none. */
export async function readStateDocument(
  store: PathStore,
  paths: RunPaths,
): Promise<RuntimeState | undefined> {
  const text = await readStateText(store, paths);
  return text === undefined ? undefined : parseRunState(text, paths);
}

/** Writes the first state of a run; `ALREADY_EXISTS` when the run id is taken. */
export async function createStateDocument(
  store: PathStore,
  paths: RunPaths,
  state: RuntimeState,
): Promise<void> {
  await withIoErrors('create', paths.state, async () => {
    await store.ensureDir(paths.root);
    await store.createDocument(paths.state, RuntimeStateSchema, state);
  });
}

/** What {@link updateStateDocument} does with the state it read. */
export interface StateChange {
  /** The next state, or `undefined` to write nothing. May throw a typed error to refuse. */
  next(before: RuntimeState): Promise<RuntimeState | undefined>;
  /** Runs after `next`'s state was written, before another writer can change it again. */
  written(before: RuntimeState, after: RuntimeState): Promise<void>;
}

/**
 * Reads a run's state, lets `change` decide the next one and writes it, all under the
 * state lock, so no other writer changes the state in between. `RUN_NOT_FOUND` when the
 * run has no state. Resolves to the state now stored.
 */
export async function updateStateDocument(
  store: PathStore,
  paths: RunPaths,
  change: StateChange,
  lockOptions: LockOptions | undefined,
): Promise<RuntimeState> {
  const locked = () =>
    store.withLock(
      paths.state,
      async (lock) => {
        const before = await readStateDocument(store, paths);
        if (before === undefined) throw runNotFound(paths);
        const after = await change.next(before);
        if (after === undefined) return before;
        await withIoErrors('write', paths.state, () =>
          store.writeDocument(paths.state, RuntimeStateSchema, after, lock),
        );
        await change.written(before, after);
        return after;
      },
      lockOptions,
    );
  return withIoErrors('change', paths.state, locked);
}

/** `RUN_NOT_FOUND` for a run without a `state.json`. */
export function runNotFound(paths: RunPaths): TeamkitError {
  return new TeamkitError('RUN_NOT_FOUND', `No team run ${paths.runId} (no ${paths.state}).`, {
    details: { runId: paths.runId },
  });
}

/** Appends one event to the run's `events.jsonl`. */
export function appendStateEvent(
  store: PathStore,
  paths: RunPaths,
  event: Omit<RunEventInput, 'runId'>,
): Promise<void> {
  return withIoErrors('append to', paths.events, () =>
    appendRunEvent(store, paths.events, { runId: paths.runId, ...event }),
  );
}

/** The ids of the run folders under `home/runtime/` (other names are ignored). */
export async function listRunIds(store: PathStore, home: string): Promise<string[]> {
  const runtime = runtimeFolderOf(home);
  const names = await withIoErrors('list', runtime, () => store.list(runtime));
  return names.filter((name) => RunIdSchema.safeParse(name).success);
}

/**
 * Removes a run's folder: renamed aside first, so a removal cut short leaves no
 * half-removed run behind. False when the folder was already gone.
 */
export async function removeRunFolder(
  store: PathStore,
  home: string,
  runId: string,
): Promise<boolean> {
  const root = runPathsOf(home, runId).root;
  const aside = containedPath(home, 'runtime', `${SWEPT_PREFIX}${runId}-${randomUUID()}`);
  return withIoErrors('remove', root, async () => {
    if (!(await store.move(root, aside))) return false;
    await store.removeTree(aside);
    return true;
  });
}

/** Removes what earlier removals cut short left aside; returns the removed folders. */
export async function removeRunFolderLeftovers(store: PathStore, home: string): Promise<string[]> {
  const runtime = runtimeFolderOf(home);
  const removed: string[] = [];
  for (const name of await withIoErrors('list', runtime, () => store.list(runtime))) {
    if (!name.startsWith(SWEPT_PREFIX)) continue;
    const leftover = containedPath(runtime, name);
    await withIoErrors('remove', leftover, () => store.removeTree(leftover));
    removed.push(leftover);
  }
  return removed;
}
