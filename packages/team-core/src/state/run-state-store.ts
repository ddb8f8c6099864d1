import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { isTeamkitError, TeamkitError } from '../errors/index.js';
import { describeIssues } from '../schema/describe-issues.js';
import { RunIdSchema } from '../schema/names.js';
import {
  type MemberStatus,
  type RunMember,
  type RunStatus,
  type RuntimeState,
  RuntimeStateSchema,
} from '../schema/runtime-state.js';
import type { RunBounds, TeamSpec } from '../schema/team-spec.js';
import { containedPath } from '../storage/contained-path.js';
import type { DocumentProblem } from '../storage/document.js';
import { toDocumentProblem } from '../storage/document.js';
import { appendRunEvent } from '../storage/event-log.js';
import type { LockOptions } from '../storage/file-lock.js';
import { createPathStore, type PathStore } from '../storage/path-store.js';
import { runPaths } from '../storage/teamkit-home.js';
import {
  assertMemberTransition,
  assertRunTransition,
  TERMINAL_RUN_STATUSES,
  WRITABLE_RUN_STATUSES,
} from './status-machines.js';

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

/** @internal Resolves the defaults of {@link StateOptions}. */
export function resolveStateOptions(options: StateOptions = {}): {
  store: PathStore;
  now: () => number;
  lock: LockOptions | undefined;
  actor: string;
} {
  return {
    store: options.store ?? createPathStore(),
    now: options.now ?? Date.now,
    lock: options.lock,
    actor: options.actor ?? 'teamkit',
  };
}

/** Builds a `BOUND_EXCEEDED` error naming the bound, its limit and the value it would reach. */
export function boundExceeded(
  bound: keyof RunBounds,
  limit: number,
  value: number,
  what: string,
): TeamkitError {
  return new TeamkitError(
    'BOUND_EXCEEDED',
    `${what}: the run bound ${bound}=${limit} would be passed (${value}). Raise it in the team's policy.yaml or finish the run.`,
    { details: { bound, limit, value } },
  );
}

/** Members the parallel bound counts: non-lead members that are working right now. */
export function countParallelMembers(state: RuntimeState): number {
  return state.members.filter((member) => !member.isLead && member.status === 'running').length;
}

/**
 * Creates `runtime/<runId>/state.json` for a new run in status `creating`, with every
 * member of the team `pending`. Fails with `ALREADY_EXISTS` if the run id is taken.
 */
export async function createRunState(
  home: string,
  input: CreateRunStateInput,
  options: StateOptions = {},
): Promise<RuntimeState> {
  const { store, now, actor } = resolveStateOptions(options);
  const runId = input.runId ?? randomUUID();
  const paths = runPaths(home, runId);
  const { spec } = input;
  const bounds = spec.policy.bounds;
  if (spec.members.length > bounds.maxMembers) {
    throw boundExceeded('maxMembers', bounds.maxMembers, spec.members.length, 'Creating the run');
  }
  const at = now();
  const state = RuntimeStateSchema.parse({
    version: 1,
    runId,
    teamName: spec.id,
    teamSource: input.teamSource,
    hostId: input.hostId,
    createdAt: at,
    updatedAt: at,
    status: 'creating',
    leadSessionId: input.leadSessionId,
    repoRoot: input.repoRoot,
    members: spec.members.map(
      (member): RunMember => ({
        name: member.name,
        role: member.role,
        isLead: member.name === spec.lead,
        status: 'pending',
        model: member.model,
        color: member.color,
        sessionId: member.name === spec.lead ? input.leadSessionId : undefined,
        pendingDeliveryIds: [],
        turns: 0,
      }),
    ),
    policy: spec.policy,
  });
  await store.ensureDir(paths.root);
  await store.createDocument(paths.state, RuntimeStateSchema, state);
  await appendRunEvent(store, paths.events, {
    runId,
    actor,
    type: 'run.created',
    data: { teamName: spec.id, to: 'creating' },
    at,
  });
  return state;
}

/**
 * Reads a run's state. A missing run is `RUN_NOT_FOUND`; a torn or invalid file is
 * `CORRUPT_DOCUMENT` and is left in place, never replaced.
 */
export async function readRunState(
  home: string,
  runId: string,
  options: StateOptions = {},
): Promise<RuntimeState> {
  const { store } = resolveStateOptions(options);
  const paths = runPaths(home, runId);
  const state = await store.readDocument(paths.state, RuntimeStateSchema);
  if (state === undefined) {
    throw new TeamkitError('RUN_NOT_FOUND', `No team run ${runId} (no ${paths.state}).`, {
      details: { runId },
    });
  }
  return state;
}

function invalid(message: string, details: Record<string, unknown>): TeamkitError {
  return new TeamkitError('INVALID_INPUT', message, { details });
}

const IMMUTABLE_FIELDS = [
  'version',
  'runId',
  'teamName',
  'teamSource',
  'hostId',
  'createdAt',
  'policy',
] as const;

/**
 * Checks that `after` may follow `before`: identity fields unchanged, every run and
 * member status change allowed by its machine, no member removed or renamed, and no
 * bound passed by the change. Throws the typed error of the first violation.
 */
export function assertLegalStateChange(before: RuntimeState, after: RuntimeState): void {
  const runId = before.runId;
  for (const field of IMMUTABLE_FIELDS) {
    if (!isDeepStrictEqual(before[field], after[field])) {
      throw invalid(`The run's ${field} cannot change.`, { runId, field });
    }
  }
  if (TERMINAL_RUN_STATUSES.includes(before.status)) {
    throw new TeamkitError(
      'RUN_NOT_ACTIVE',
      `Run ${runId} is ${before.status} and accepts no further changes.`,
      { details: { runId, status: before.status } },
    );
  }
  if (before.status !== after.status) assertRunTransition(before.status, after.status, runId);

  const bounds = after.policy.bounds;
  const names = new Set<string>();
  for (const member of after.members) {
    if (names.has(member.name)) {
      throw invalid(`Member ${member.name} appears twice.`, { runId, member: member.name });
    }
    names.add(member.name);
  }
  const afterByName = new Map(after.members.map((member) => [member.name, member]));
  for (const old of before.members) {
    const next = afterByName.get(old.name);
    if (next === undefined) {
      throw invalid(`Member ${old.name} cannot be removed from the run; move it to "terminated".`, {
        runId,
        member: old.name,
      });
    }
    if (next.isLead !== old.isLead || next.role !== old.role) {
      throw invalid(`Member ${old.name}'s role and lead flag cannot change.`, {
        runId,
        member: old.name,
      });
    }
    if (old.status !== next.status) assertMemberTransition(old.status, next.status, old.name);
    if (next.turns < old.turns) {
      throw invalid(`Member ${old.name}'s turn count cannot go down.`, { runId });
    }
    if (next.turns > bounds.maxTurnsPerMember && next.turns > old.turns) {
      throw boundExceeded(
        'maxTurnsPerMember',
        bounds.maxTurnsPerMember,
        next.turns,
        `Member ${old.name} taking another turn`,
      );
    }
  }
  const beforeNames = new Set(before.members.map((member) => member.name));
  const added = after.members.filter((member) => !beforeNames.has(member.name));
  for (const member of added) {
    if (member.status !== 'pending' || member.isLead) {
      throw invalid(`A new member (${member.name}) joins as a pending, non-lead member.`, {
        runId,
        member: member.name,
      });
    }
  }
  if (added.length > 0) {
    if (!WRITABLE_RUN_STATUSES.includes(after.status)) {
      throw new TeamkitError(
        'RUN_NOT_ACTIVE',
        `Run ${runId} is ${after.status}; members can no longer be added.`,
        { details: { runId, status: after.status } },
      );
    }
    if (after.members.length > bounds.maxMembers) {
      throw boundExceeded('maxMembers', bounds.maxMembers, after.members.length, 'Adding a member');
    }
  }
  const startedRunning = after.members.some(
    (member) =>
      member.status === 'running' &&
      before.members.find((old) => old.name === member.name)?.status !== 'running',
  );
  if (startedRunning && !WRITABLE_RUN_STATUSES.includes(after.status)) {
    throw new TeamkitError(
      'RUN_NOT_ACTIVE',
      `Run ${runId} is ${after.status}; no member may start working.`,
      { details: { runId, status: after.status } },
    );
  }
  const parallelBefore = countParallelMembers(before);
  const parallelAfter = countParallelMembers(after);
  if (parallelAfter > bounds.maxParallelMembers && parallelAfter > parallelBefore) {
    throw boundExceeded(
      'maxParallelMembers',
      bounds.maxParallelMembers,
      parallelAfter,
      'Starting another member',
    );
  }
  if (
    after.counters.messagesSent < before.counters.messagesSent ||
    after.counters.turns < before.counters.turns
  ) {
    throw invalid("The run's counters cannot go down.", { runId });
  }
  if (
    after.counters.messagesSent > bounds.maxMessagesPerRun &&
    after.counters.messagesSent > before.counters.messagesSent
  ) {
    throw boundExceeded(
      'maxMessagesPerRun',
      bounds.maxMessagesPerRun,
      after.counters.messagesSent,
      'Sending another message',
    );
  }
}

/**
 * Changes a copy of the state in place, or returns a replacement; may be async.
 */
export type RunStateMutation = (
  draft: RuntimeState,
) => RuntimeState | void | Promise<RuntimeState> | Promise<void>;

/**
 * The one way to change a run's state. Under the state lock it reads the state, lets
 * `mutate` change a copy (or return a replacement), validates the result against the
 * schema, both status machines and the bounds ({@link assertLegalStateChange}), and
 * writes it atomically while the lock is still held. An unchanged result writes nothing.
 */
export async function updateRunState(
  home: string,
  runId: string,
  mutate: RunStateMutation,
  options: StateOptions = {},
): Promise<RuntimeState> {
  const { store, now, lock: lockOptions, actor } = resolveStateOptions(options);
  const paths = runPaths(home, runId);
  return store.withLock(
    paths.state,
    async (lock) => {
      const before = await readRunState(home, runId, { store });
      const draft = structuredClone(before);
      const returned = (await mutate(draft)) ?? draft;
      const parsed = RuntimeStateSchema.safeParse(returned);
      if (!parsed.success) {
        const issues = describeIssues(parsed.error);
        throw invalid(`Refused an invalid change to run ${runId}: ${issues.join('; ')}.`, {
          runId,
          issues,
        });
      }
      const after = parsed.data;
      after.updatedAt = before.updatedAt;
      if (isDeepStrictEqual(before, after)) return before;
      assertLegalStateChange(before, after);
      const at = Math.max(now(), before.updatedAt);
      after.updatedAt = at;
      await store.writeDocument(paths.state, RuntimeStateSchema, after, lock);
      await recordStatusEvents(store, paths.events, before, after, actor, at);
      return after;
    },
    lockOptions,
  );
}

async function recordStatusEvents(
  store: PathStore,
  eventsFile: string,
  before: RuntimeState,
  after: RuntimeState,
  actor: string,
  at: number,
): Promise<void> {
  const events: { type: string; ids?: string[]; data: Record<string, unknown> }[] = [];
  if (before.status !== after.status) {
    events.push({
      type: 'run.status',
      data: { from: before.status, to: after.status, reason: after.statusReason },
    });
  }
  const oldStatus = new Map<string, MemberStatus>(before.members.map((m) => [m.name, m.status]));
  for (const member of after.members) {
    const from = oldStatus.get(member.name);
    if (from !== member.status) {
      events.push({
        type: 'member.status',
        ids: [member.name],
        data: { from: from ?? null, to: member.status, reason: member.statusReason },
      });
    }
  }
  // The state file is the source of truth; a failed log append must not undo a write
  // that already happened, so it is not reported as a failure of the change.
  for (const event of events) {
    await appendRunEvent(store, eventsFile, { runId: after.runId, actor, at, ...event }).catch(
      () => {},
    );
  }
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
  options: TransitionOptions = {},
): Promise<RuntimeState> {
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

/** Finds a member of the run or throws `UNKNOWN_MEMBER`. */
export function findMember(state: RuntimeState, member: string): RunMember {
  const found = state.members.find((candidate) => candidate.name === member);
  if (found === undefined) {
    throw new TeamkitError(
      'UNKNOWN_MEMBER',
      `Run ${state.runId} has no member "${member}" (members: ${state.members.map((m) => m.name).join(', ')}).`,
      { details: { runId: state.runId, member } },
    );
  }
  return found;
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
  options: MemberTransitionOptions = {},
): Promise<RuntimeState> {
  const { now } = resolveStateOptions(options);
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
 * files are reported in `problems` and folders without state in `incomplete`.
 */
export async function listRuns(home: string, options: StateOptions = {}): Promise<RunListing> {
  const { store } = resolveStateOptions(options);
  const runtime = containedPath(home, 'runtime');
  const listing: RunListing = { runs: [], problems: [], incomplete: [] };
  for (const entry of await store.list(runtime)) {
    if (!RunIdSchema.safeParse(entry).success) continue;
    const paths = runPaths(home, entry);
    try {
      const state = await store.readDocument(paths.state, RuntimeStateSchema);
      if (state === undefined) listing.incomplete.push(entry);
      else listing.runs.push(state);
    } catch (error) {
      if (isTeamkitError(error)) listing.problems.push(toDocumentProblem(error, paths.state));
      else throw error;
    }
  }
  listing.runs.sort((a, b) => a.createdAt - b.createdAt || a.runId.localeCompare(b.runId));
  return listing;
}
