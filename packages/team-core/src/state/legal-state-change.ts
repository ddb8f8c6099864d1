import { isDeepStrictEqual } from 'node:util';
import { TeamkitError } from '../errors/index.js';
import { type RuntimeState, RuntimeStateSchema } from '../schema/runtime-state.js';
import { boundExceeded } from './bound-exceeded.js';
import { parseInput } from './parse-input.js';
import { countParallelMembers } from './run-members.js';
import {
  assertMemberTransition,
  assertRunTransition,
  TERMINAL_RUN_STATUSES,
  WRITABLE_RUN_STATUSES,
} from './status-machines.js';

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
 * Checks that `after` may follow `before`: both valid states (`INVALID_INPUT`), identity
 * fields unchanged, every run and member status change allowed by its machine, no
 * member removed or renamed, and no bound passed by the change. Throws the typed error
 * of the first violation.
 */
export function assertLegalStateChange(before: RuntimeState, after: RuntimeState): void {
  checkStateChange(
    parseInput(RuntimeStateSchema, before, 'the state before'),
    parseInput(RuntimeStateSchema, after, 'the state after'),
  );
}

/** @internal {@link assertLegalStateChange} for states already validated. */
export function checkStateChange(before: RuntimeState, after: RuntimeState): void {
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
  assertLegalMemberChanges(before, after);
  assertLegalCounterChanges(before, after);
  assertLegalGoalChange(before, after);
}

/**
 * A goal, once set, keeps its words; its criteria are never removed or reworded, their
 * evidence only grows, and a waiver is never taken back. So nobody can quietly drop
 * what the run was asked to achieve.
 */
function assertLegalGoalChange(before: RuntimeState, after: RuntimeState): void {
  const runId = before.runId;
  const old = before.goal;
  if (old === undefined) return;
  const next = after.goal;
  if (next === undefined || next.text !== old.text) {
    throw invalid("The run's goal cannot be removed or reworded once set.", { runId });
  }
  const nextById = new Map(next.criteria.map((criterion) => [criterion.id, criterion]));
  for (const criterion of old.criteria) {
    const kept = nextById.get(criterion.id);
    if (kept === undefined || kept.text !== criterion.text) {
      throw invalid(`Acceptance criterion ${criterion.id} cannot be removed or reworded.`, {
        runId,
        criterion: criterion.id,
      });
    }
    const evidenceKept = criterion.evidence.every((entry, index) =>
      isDeepStrictEqual(entry, kept.evidence[index]),
    );
    if (!evidenceKept || (criterion.waived !== undefined && kept.waived === undefined)) {
      throw invalid(
        `Acceptance criterion ${criterion.id} keeps its evidence and its waiver; they can only be added to.`,
        { runId, criterion: criterion.id },
      );
    }
  }
}

function assertLegalCounterChanges(before: RuntimeState, after: RuntimeState): void {
  if (after.counters.turns < before.counters.turns) {
    throw invalid("The run's counters cannot go down.", { runId: before.runId });
  }
}

function assertLegalMemberChanges(before: RuntimeState, after: RuntimeState): void {
  const runId = before.runId;
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
}
