import { TeamkitError } from '../errors/index.js';
import { MemberNameSchema, RESERVED_MEMBER_NAMES } from '../schema/names.js';
import type { RunMember, RuntimeState } from '../schema/runtime-state.js';
import { boundExceeded } from './bound-exceeded.js';
import { parseInput } from './parse-input.js';
import { countParallelMembers, findMember } from './run-members.js';
import { updateRunState } from './run-state-store.js';
import {
  AddMemberInputSchema,
  MemberArgument,
  SpawnCheckSchema,
  StartMemberInputSchema,
  TimeArgument,
} from './state-inputs.js';
import { resolveStateOptions, type StateOptions } from './state-options.js';
import { SPAWNING_RUN_STATUSES, WORKING_RUN_STATUSES } from './status-machines.js';

function notActive(state: RuntimeState, what: string): TeamkitError {
  return new TeamkitError(
    'RUN_NOT_ACTIVE',
    `Run ${state.runId} is ${state.status}; ${what} is refused.`,
    { details: { runId: state.runId, status: state.status } },
  );
}

/**
 * Throws `BOUND_EXCEEDED` (bound `maxWallClockMinutes`) once the run has lived longer
 * than its wall-clock bound.
 */
export function assertWithinWallClock(state: RuntimeState, now: number = Date.now()): void {
  parseInput(TimeArgument, now, 'the clock reading');
  const limit = state.policy.bounds.maxWallClockMinutes;
  const elapsedMinutes = (now - state.createdAt) / 60_000;
  if (elapsedMinutes > limit) {
    throw boundExceeded(
      'maxWallClockMinutes',
      limit,
      Math.floor(elapsedMinutes),
      `Run ${state.runId} has run for ${Math.floor(elapsedMinutes)} minutes`,
    );
  }
}

/** What {@link assertCanSpawn} checks. */
export interface SpawnCheck {
  /** True when the spawn adds a member that is not in the run yet (counts toward maxMembers). */
  newMember?: boolean;
  /** The clock reading to check the wall-clock bound against. */
  now?: number;
}

/**
 * Throws unless one more member may start: the run must be creating or active
 * (`RUN_NOT_ACTIVE`), and neither maxMembers, maxParallelMembers nor the wall clock may
 * be passed (`BOUND_EXCEEDED` naming the bound).
 */
export function assertCanSpawn(state: RuntimeState, check: SpawnCheck = {}): void {
  parseInput(SpawnCheckSchema, check, 'the spawn check');
  if (!SPAWNING_RUN_STATUSES.includes(state.status)) throw notActive(state, 'spawning');
  const bounds = state.policy.bounds;
  if (check.newMember === true && state.members.length + 1 > bounds.maxMembers) {
    throw boundExceeded(
      'maxMembers',
      bounds.maxMembers,
      state.members.length + 1,
      'Adding a member',
    );
  }
  const parallel = countParallelMembers(state) + 1;
  if (parallel > bounds.maxParallelMembers) {
    throw boundExceeded(
      'maxParallelMembers',
      bounds.maxParallelMembers,
      parallel,
      'Starting another member',
    );
  }
  assertWithinWallClock(state, check.now);
}

/**
 * Refuses another turn of `member`: `RUN_NOT_ACTIVE` outside a working run,
 * `BOUND_EXCEEDED` past maxTurnsPerMember or the run's wall clock. A pure check.
 */
export function assertCanTakeTurn(
  state: RuntimeState,
  member: string,
  now: number = Date.now(),
): void {
  parseInput(TimeArgument, now, 'the clock reading');
  if (!WORKING_RUN_STATUSES.includes(state.status)) throw notActive(state, 'a turn');
  const target = findMember(state, member);
  const limit = state.policy.bounds.maxTurnsPerMember;
  if (target.turns + 1 > limit) {
    throw boundExceeded(
      'maxTurnsPerMember',
      limit,
      target.turns + 1,
      `Member ${member} taking another turn`,
    );
  }
  assertWithinWallClock(state, now);
}

/**
 * Counts one turn of `member` (and of the run). Refuses with `BOUND_EXCEEDED` past
 * maxTurnsPerMember or the wall clock, and with `RUN_NOT_ACTIVE` outside a working run.
 */
export async function recordTurn(
  home: string,
  runId: string,
  member: string,
  options: StateOptions,
): Promise<RuntimeState> {
  const { now } = resolveStateOptions(options);
  parseInput(MemberArgument, member, 'the member name');
  return updateRunState(
    home,
    runId,
    (draft) => {
      assertCanTakeTurn(draft, member, now());
      const target = findMember(draft, member);
      target.turns += 1;
      target.lastSeenAt = now();
      draft.counters.turns += 1;
      return draft;
    },
    options,
  );
}

/** What {@link startMember} records. */
export interface StartMemberInput {
  /** The host session now running the member. */
  sessionId: string;
  /** The machine that runs it, when the run is shared by several (see `RunMember.machine`). */
  machine?: string;
}

/**
 * Marks a pending member `running` with its session after checking the spawn bounds
 * ({@link assertCanSpawn}); call it once the host has started the member.
 */
export async function startMember(
  home: string,
  runId: string,
  member: string,
  input: StartMemberInput,
  options: StateOptions,
): Promise<RuntimeState> {
  const { now } = resolveStateOptions(options);
  parseInput(MemberArgument, member, 'the member name');
  const { sessionId, machine } = parseInput(StartMemberInputSchema, input, 'the start');
  return updateRunState(
    home,
    runId,
    (draft) => {
      const target = findMember(draft, member);
      assertCanSpawn(draft, { now: now() });
      target.status = 'running';
      target.sessionId = sessionId;
      if (machine !== undefined) target.machine = machine;
      target.lastSeenAt = now();
      return draft;
    },
    options,
  );
}

/** A member to add to a running team, beyond those its spec listed. */
export interface AddMemberInput {
  name: string;
  role: string;
  model?: string;
  color?: string;
}

/**
 * Adds a `pending` member to the run, refusing past maxMembers or the wall clock, and
 * outside a creating or active run.
 */
export async function addMember(
  home: string,
  runId: string,
  input: AddMemberInput,
  options: StateOptions,
): Promise<RuntimeState> {
  const { now } = resolveStateOptions(options);
  const checked = parseInput(AddMemberInputSchema, input, 'the new member');
  const name = parseInput(MemberNameSchema, checked.name, 'the new member name');
  return updateRunState(
    home,
    runId,
    (draft) => {
      if (RESERVED_MEMBER_NAMES.includes(name)) {
        throw new TeamkitError(
          'INVALID_INPUT',
          `"${name}" is reserved (it names the user or Teamkit itself); pick another member name.`,
          { details: { runId, member: name } },
        );
      }
      if (draft.members.some((member) => member.name === name)) {
        throw new TeamkitError('INVALID_INPUT', `Run ${runId} already has a member "${name}".`, {
          details: { runId, member: name },
        });
      }
      if (!SPAWNING_RUN_STATUSES.includes(draft.status)) {
        throw notActive(draft, 'adding a member');
      }
      const bounds = draft.policy.bounds;
      if (draft.members.length + 1 > bounds.maxMembers) {
        throw boundExceeded(
          'maxMembers',
          bounds.maxMembers,
          draft.members.length + 1,
          'Adding a member',
        );
      }
      assertWithinWallClock(draft, now());
      const member: RunMember = {
        name,
        role: checked.role,
        isLead: false,
        status: 'pending',
        model: checked.model,
        color: checked.color,
        pendingDeliveryIds: [],
        turns: 0,
      };
      draft.members.push(member);
      return draft;
    },
    options,
  );
}
