import { TeamkitError } from '../errors/index.js';
import {
  type MemberStatus,
  type RunMember,
  type RuntimeState,
  RuntimeStateSchema,
} from '../schema/index.js';
import { WRITABLE_RUN_STATUSES } from '../state/status-machines.js';
import {
  createPathStore,
  type LockOptions,
  type PathStore,
  parseDocument,
  type RunPaths,
  runPaths,
} from '../storage/index.js';

/** Member statuses that take no part in broadcasts and own no open work. */
export const INACTIVE_MEMBER_STATUSES: readonly MemberStatus[] = [
  'terminated',
  'shutdown_approved',
  'errored',
];

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

/** A run's resolved paths and seams, plus a cached reader of its `state.json`. */
export interface RunContext {
  readonly paths: RunPaths;
  readonly store: PathStore;
  readonly now: () => number;
  readonly lock: LockOptions;
  /** Reads the run state (parsed once per distinct file content); `RUN_NOT_FOUND` if absent. */
  readState(): Promise<RuntimeState>;
}

/** Builds a {@link RunContext}; the run id is checked before it becomes a path. */
export function createRunContext(options: RunContextOptions): RunContext {
  const paths = runPaths(options.home, options.runId);
  const store = options.store ?? createPathStore();
  let cached: { text: string; state: RuntimeState } | undefined;
  return {
    paths,
    store,
    now: options.now ?? Date.now,
    lock: options.lock ?? {},
    async readState() {
      const text = await store.readText(paths.state);
      if (text === undefined) {
        throw new TeamkitError('RUN_NOT_FOUND', `No team run ${options.runId} exists.`, {
          details: { runId: options.runId },
        });
      }
      if (cached?.text === text) return cached.state;
      const state = parseDocument(text, RuntimeStateSchema, paths.state);
      cached = { text, state };
      return state;
    },
  };
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

/** Returns the named member of the run, or refuses with `UNKNOWN_MEMBER` listing the roster. */
export function requireMember(state: RuntimeState, name: string): RunMember {
  const member = state.members.find((candidate) => candidate.name === name);
  if (member === undefined) {
    const names = state.members.map((candidate) => candidate.name);
    throw new TeamkitError(
      'UNKNOWN_MEMBER',
      `Run ${state.runId} has no member ${JSON.stringify(name)}; members are: ${names.join(', ')}.`,
      { details: { member: name, members: names } },
    );
  }
  return member;
}

/** True when the member takes part in broadcasts and may own open work. */
export function isActiveMember(member: RunMember): boolean {
  return !INACTIVE_MEMBER_STATUSES.includes(member.status);
}
