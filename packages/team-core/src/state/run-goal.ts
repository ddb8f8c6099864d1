import { z } from 'zod';
import { TeamkitError } from '../errors/index.js';
import { USER_PARTICIPANT } from '../schema/names.js';
import {
  type AcceptanceCriterion,
  EVIDENCE_KINDS,
  type EvidenceKind,
  type RunGoal,
} from '../schema/run-goal.js';
import type { RuntimeState } from '../schema/runtime-state.js';
import { parseInput } from './parse-input.js';
import { findParticipant } from './run-members.js';
import { updateRunState } from './run-state-store.js';
import { resolveStateOptions, type StateOptions } from './state-options.js';
import { WRITABLE_RUN_STATUSES } from './status-machines.js';

/** What {@link setRunGoal} records. */
export interface RunGoalInput {
  /** What the run is for, in words. */
  text: string;
  /** Acceptance criteria, each a sentence that evidence must show met. */
  criteria?: readonly string[];
  /** Who sets it: the lead or the user. */
  by: string;
}

/** One piece of evidence for a criterion. */
export interface EvidenceInput {
  kind: EvidenceKind;
  /** A task id, a full commit id, or a message id; the caller checks that it exists. */
  ref: string;
  note?: string;
  /** Who attaches it: the lead or the user. */
  by: string;
}

const GoalInputSchema = z.object({
  text: z.string().trim().min(1).max(4_000),
  criteria: z.array(z.string().trim().min(1).max(2_000)).max(50).optional(),
  by: z.string(),
});
const CriteriaInputSchema = z.array(z.string().trim().min(1).max(2_000)).min(1).max(50);
const EvidenceInputSchema = z.object({
  kind: z.enum(EVIDENCE_KINDS),
  ref: z.string().min(1).max(100),
  note: z.string().max(2_000).optional(),
  by: z.string(),
});
const WaiverInputSchema = z.object({ by: z.string(), reason: z.string().trim().min(1).max(2_000) });

function assertLeadRights(state: RuntimeState, by: string, operation: string): void {
  const participant = findParticipant(state, by);
  if (!participant.isLead) {
    throw new TeamkitError(
      'NOT_LEAD',
      `Only the lead and the user may ${operation}; ${by} is not the lead.`,
      { details: { runId: state.runId, caller: by, operation } },
    );
  }
}

function assertGoalWritable(state: RuntimeState): void {
  if (!WRITABLE_RUN_STATUSES.includes(state.status)) {
    throw new TeamkitError(
      'RUN_NOT_ACTIVE',
      `Run ${state.runId} is ${state.status}; its goal and criteria change only while it works.`,
      { details: { runId: state.runId, status: state.status } },
    );
  }
}

function requireGoal(state: RuntimeState): RunGoal {
  if (state.goal === undefined) {
    throw new TeamkitError(
      'UNKNOWN_CRITERION',
      `Run ${state.runId} has no goal yet; set one first (team run goal).`,
      { details: { runId: state.runId } },
    );
  }
  return state.goal;
}

/** The criterion `id` of the run's goal (`UNKNOWN_CRITERION`, naming the ids there are). */
export function findCriterion(state: RuntimeState, id: string): AcceptanceCriterion {
  const goal = requireGoal(state);
  const found = goal.criteria.find((criterion) => criterion.id === id);
  if (found === undefined) {
    const ids = goal.criteria.map((criterion) => criterion.id);
    throw new TeamkitError(
      'UNKNOWN_CRITERION',
      `Run ${state.runId} has no acceptance criterion ${JSON.stringify(id)}; it has ${ids.length === 0 ? 'none' : ids.join(', ')}.`,
      { details: { runId: state.runId, criterion: id, criteria: ids } },
    );
  }
  return found;
}

function appendCriteria(goal: RunGoal, texts: readonly string[], by: string, at: number): void {
  let next = goal.criteria.reduce((max, criterion) => Math.max(max, Number(criterion.id)), 0);
  for (const text of texts) {
    next += 1;
    goal.criteria.push({ id: String(next), text, addedBy: by, addedAt: at, evidence: [] });
  }
}

/**
 * Gives the run its goal (and criteria), as the lead or the user. A goal is set once:
 * setting the same words again only adds the new criteria; other words are refused
 * (`INVALID_TRANSITION`), so the goal the user started with cannot be swapped.
 */
export async function setRunGoal(
  home: string,
  runId: string,
  input: RunGoalInput,
  options: StateOptions,
): Promise<RuntimeState> {
  const { now } = resolveStateOptions(options);
  const checked = parseInput(GoalInputSchema, input, 'the goal');
  return updateRunState(
    home,
    runId,
    (draft) => {
      assertLeadRights(draft, checked.by, 'set the run goal');
      assertGoalWritable(draft);
      const at = now();
      if (draft.goal !== undefined && draft.goal.text !== checked.text) {
        throw new TeamkitError(
          'INVALID_TRANSITION',
          `Run ${runId} already has a goal ("${draft.goal.text}"); a goal is set once. Add criteria to it instead.`,
          { details: { runId } },
        );
      }
      draft.goal ??= { text: checked.text, setBy: checked.by, setAt: at, criteria: [] };
      appendCriteria(draft.goal, checked.criteria ?? [], checked.by, at);
      return draft;
    },
    options,
  );
}

/** Adds acceptance criteria to the run's goal, as the lead or the user. */
export async function addCriteria(
  home: string,
  runId: string,
  texts: readonly string[],
  by: string,
  options: StateOptions,
): Promise<RuntimeState> {
  const { now } = resolveStateOptions(options);
  const checked = parseInput(CriteriaInputSchema, texts, 'the criteria');
  parseInput(z.string(), by, 'who adds them');
  return updateRunState(
    home,
    runId,
    (draft) => {
      assertLeadRights(draft, by, 'add acceptance criteria');
      assertGoalWritable(draft);
      appendCriteria(requireGoal(draft), checked, by, now());
      return draft;
    },
    options,
  );
}

/**
 * Attaches evidence to a criterion, as the lead or the user. The reference's existence
 * is the caller's to check (the member client checks tasks, commits and messages).
 * The same evidence twice is recorded once.
 */
export async function attachEvidence(
  home: string,
  runId: string,
  criterionId: string,
  input: EvidenceInput,
  options: StateOptions,
): Promise<RuntimeState> {
  const { now } = resolveStateOptions(options);
  parseInput(z.string(), criterionId, 'the criterion id');
  const checked = parseInput(EvidenceInputSchema, input, 'the evidence');
  return updateRunState(
    home,
    runId,
    (draft) => {
      assertLeadRights(draft, checked.by, 'attach evidence to a criterion');
      assertGoalWritable(draft);
      const criterion = findCriterion(draft, criterionId);
      const known = criterion.evidence.some(
        (entry) => entry.kind === checked.kind && entry.ref === checked.ref,
      );
      if (!known) {
        criterion.evidence.push({
          kind: checked.kind,
          ref: checked.ref,
          ...(checked.note === undefined ? {} : { note: checked.note }),
          by: checked.by,
          at: now(),
        });
      }
      return draft;
    },
    options,
  );
}

/**
 * Waives a criterion, as the user only (`PERMISSION_DENIED` for anyone else, the lead
 * included): the run may then complete without evidence for it. A waiver is kept for the
 * report and never taken back; waiving twice keeps the first.
 */
export async function waiveCriterion(
  home: string,
  runId: string,
  criterionId: string,
  input: { by: string; reason: string },
  options: StateOptions,
): Promise<RuntimeState> {
  const { now } = resolveStateOptions(options);
  parseInput(z.string(), criterionId, 'the criterion id');
  const checked = parseInput(WaiverInputSchema, input, 'the waiver');
  return updateRunState(
    home,
    runId,
    (draft) => {
      if (checked.by !== USER_PARTICIPANT) {
        throw new TeamkitError(
          'PERMISSION_DENIED',
          `Only the user may waive an acceptance criterion; ${checked.by} may attach evidence instead.`,
          { details: { runId, caller: checked.by, criterion: criterionId } },
        );
      }
      assertGoalWritable(draft);
      const criterion = findCriterion(draft, criterionId);
      criterion.waived ??= { by: checked.by, at: now(), reason: checked.reason };
      return draft;
    },
    options,
  );
}

/** The criteria that keep the run from completing: no evidence and not waived. */
export function unmetCriteria(state: RuntimeState): AcceptanceCriterion[] {
  return (state.goal?.criteria ?? []).filter(
    (criterion) => criterion.evidence.length === 0 && criterion.waived === undefined,
  );
}
