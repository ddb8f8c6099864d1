import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { isTeamkitError } from '../errors/index.js';
import { USER_PARTICIPANT } from '../schema/names.js';
import {
  type MemberStatus,
  type RunMember,
  type RunStatus,
  type RuntimeState,
  RuntimeStateSchema,
} from '../schema/runtime-state.js';
import type { TeamSpec } from '../schema/team-spec.js';
import type { DocumentProblem } from '../storage/document.js';
import { toDocumentProblem } from '../storage/document.js';
import { boundExceeded } from './bound-exceeded.js';
import { checkStateChange } from './legal-state-change.js';
import { parseInput } from './parse-input.js';
import { findMember } from './run-members.js';
import { recordStatusEvents } from './state-events.js';
import {
  CreateRunStateInputSchema,
  MemberArgument,
  MemberStatusArgument,
  MutationArgument,
  RunStatusArgument,
} from './state-inputs.js';
import { resolveStateOptions, type StateOptions } from './state-options.js';
import {
  appendStateEvent,
  createStateDocument,
  listRunIds,
  readStateDocument,
  runKeysOf,
  runNotFound,
  updateStateDocument,
} from './state-storage.js';
import { assertMemberTransition, assertRunTransition } from './status-machines.js';

/** What {@link createRunState} needs to start a run. */
export interface CreateRunStateInput {
  /** The normalised team the run is made of; every member starts `pending`. */
  spec: TeamSpec;
  /** Where the team came from. */
  teamSource: RuntimeState['teamSource'];
  /** The host adapter running the members. */
  hostId: string;
  /** The repository the members' worktrees are made from. */
  repoRoot?: string;
  /** The lead's session, when the lead is an agent session. */
  leadSessionId?: string;
  /** A run id to use instead of a fresh UUID. */
  runId?: string;
  /** What the run is for and its acceptance criteria, given by whoever started it (default the user). */
  goal?: { text: string; criteria?: readonly string[]; by?: string };
}

/** What {@link listRuns} found: readable runs, unreadable ones, and folders without state. */
export interface RunListing {
  /** Every readable run, oldest first. */
  runs: RuntimeState[];
  /** State files that are corrupt or too new; they are left in place. */
  problems: DocumentProblem[];
  /** Run folders that hold no `state.json` (a creation cut short, or a sweep cut short). */
  incomplete: string[];
}

/**
 * Creates `runtime/<runId>/state.json` for a new run in status `creating`, with every
 * member of the team `pending`. Fails with `ALREADY_EXISTS` if the run id is taken.
 */
export async function createRunState(
  _home: string,
  input: CreateRunStateInput,
  options: StateOptions,
): Promise<RuntimeState> {
  const { store, now, actor } = resolveStateOptions(options);
  const checked = parseInput(CreateRunStateInputSchema, input, 'the new run');
  const runId = checked.runId ?? randomUUID();
  const keys = runKeysOf(runId);
  const { spec } = checked;
  const bounds = spec.policy.bounds;
  if (spec.members.length > bounds.maxMembers) {
    throw boundExceeded('maxMembers', bounds.maxMembers, spec.members.length, 'Creating the run');
  }
  const at = now();
  const goalBy = checked.goal?.by ?? USER_PARTICIPANT;
  const goal =
    checked.goal === undefined
      ? undefined
      : {
          text: checked.goal.text,
          setBy: goalBy,
          setAt: at,
          criteria: (checked.goal.criteria ?? []).map((text, index) => ({
            id: String(index + 1),
            text,
            addedBy: goalBy,
            addedAt: at,
            evidence: [],
          })),
        };
  const candidate = {
    version: 1,
    runId,
    teamName: spec.id,
    teamSource: checked.teamSource,
    hostId: checked.hostId,
    createdAt: at,
    updatedAt: at,
    status: 'creating',
    leadSessionId: checked.leadSessionId,
    repoRoot: checked.repoRoot,
    ...(goal === undefined ? {} : { goal }),
    members: spec.members.map(
      (member): RunMember => ({
        name: member.name,
        role: member.role,
        isLead: member.name === spec.lead,
        status: 'pending',
        model: member.model,
        color: member.color,
        sessionId: member.name === spec.lead ? checked.leadSessionId : undefined,
        pendingDeliveryIds: [],
        turns: 0,
      }),
    ),
    policy: spec.policy,
  };
  const state = parseInput(RuntimeStateSchema, candidate, `the new state of run ${runId}`);
  await createStateDocument(store, keys, state);
  await appendStateEvent(store, keys, {
    actor,
    type: 'run.created',
    data: { teamName: spec.id, to: 'creating' },
    at,
  });
  return state;
}

/**
 * Reads a run's state. A missing run is `RUN_NOT_FOUND`; a torn or invalid file, or one
 * that names another run, is `CORRUPT_DOCUMENT` and is left in place, never replaced.
 */
export async function readRunState(
  _home: string,
  runId: string,
  options: StateOptions,
): Promise<RuntimeState> {
  const { store } = resolveStateOptions(options);
  const keys = runKeysOf(runId);
  const state = await readStateDocument(store, keys);
  if (state === undefined) throw runNotFound(keys);
  return state;
}

/**
 * Changes a copy of the state in place, or returns a replacement; may be async.
 */
export type RunStateMutation = (
  draft: RuntimeState,
) => RuntimeState | void | Promise<RuntimeState> | Promise<void>;

/**
 * The one way to change a run's state. It reads the state, lets `mutate` change a copy
 * (or return a replacement), validates the result against the schema, both status
 * machines and the bounds (see `assertLegalStateChange`), and writes it by
 * compare-and-set at the revision it read. When another writer changed the state in
 * between, it reads again and runs `mutate` again: `mutate` must give the same answer
 * for the same state, whatever ran before (it may run more than once). An unchanged
 * result writes nothing.
 */
export async function updateRunState(
  _home: string,
  runId: string,
  mutate: RunStateMutation,
  options: StateOptions,
): Promise<RuntimeState> {
  const { store, now, actor } = resolveStateOptions(options);
  parseInput(MutationArgument, mutate, 'the mutation');
  const keys = runKeysOf(runId);
  return updateStateDocument(store, keys, {
    async next(before) {
      const draft = structuredClone(before);
      const returned = (await mutate(draft)) ?? draft;
      const after = parseInput(RuntimeStateSchema, returned, `a change to run ${runId}`);
      after.updatedAt = before.updatedAt;
      if (isDeepStrictEqual(before, after)) return undefined;
      checkStateChange(before, after);
      after.updatedAt = Math.max(now(), before.updatedAt);
      return after;
    },
    written: (before, after) =>
      recordStatusEvents(store, keys, before, after, actor, after.updatedAt),
  });
}

/** Options for {@link transitionRun}. */
export interface TransitionOptions extends StateOptions {
  /** Why the status changed; kept as `statusReason`. */
  reason?: string;
}

/**
 * Moves a run to `to` through the run status machine (`INVALID_TRANSITION` otherwise).
 * Asking for the status the run already has changes nothing, so retries are safe.
 */
export async function transitionRun(
  home: string,
  runId: string,
  to: RunStatus,
  options: TransitionOptions,
): Promise<RuntimeState> {
  parseInput(RunStatusArgument, to, 'the run status');
  return updateRunState(
    home,
    runId,
    (draft) => {
      if (draft.status === to) return draft;
      assertRunTransition(draft.status, to, runId);
      draft.status = to;
      if (options.reason !== undefined) draft.statusReason = options.reason;
      else delete draft.statusReason;
      return draft;
    },
    options,
  );
}

/** Options for {@link transitionMember}. */
export interface MemberTransitionOptions extends TransitionOptions {
  /** The member's host session, recorded with the move (typically on `running`). */
  sessionId?: string;
}

/**
 * Moves one member to `to` through the member status machine. Unknown members are
 * `UNKNOWN_MEMBER`; asking for the current status changes nothing.
 */
export async function transitionMember(
  home: string,
  runId: string,
  member: string,
  to: MemberStatus,
  options: MemberTransitionOptions,
): Promise<RuntimeState> {
  const { now } = resolveStateOptions(options);
  parseInput(MemberArgument, member, 'the member name');
  parseInput(MemberStatusArgument, to, 'the member status');
  return updateRunState(
    home,
    runId,
    (draft) => {
      const target = findMember(draft, member);
      if (options.sessionId !== undefined) target.sessionId = options.sessionId;
      if (target.status === to) return draft;
      assertMemberTransition(target.status, to, member);
      target.status = to;
      target.lastSeenAt = now();
      if (options.reason !== undefined) target.statusReason = options.reason;
      else delete target.statusReason;
      return draft;
    },
    options,
  );
}

/**
 * Lists every run under `home/runtime/`, oldest first. It only reads: corrupt state
 * files (also one naming another run) are reported in `problems` and folders without
 * state in `incomplete`.
 */
export async function listRuns(_home: string, options: StateOptions): Promise<RunListing> {
  const { store } = resolveStateOptions(options);
  const listing: RunListing = { runs: [], problems: [], incomplete: [] };
  for (const runId of await listRunIds(store)) {
    const keys = runKeysOf(runId);
    try {
      const state = await readStateDocument(store, keys);
      if (state === undefined) listing.incomplete.push(runId);
      else listing.runs.push(state);
    } catch (error) {
      if (isTeamkitError(error)) listing.problems.push(toDocumentProblem(error, keys.state));
      else throw error;
    }
  }
  listing.runs.sort((a, b) => a.createdAt - b.createdAt || a.runId.localeCompare(b.runId));
  return listing;
}
