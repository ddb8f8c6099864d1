import { z } from 'zod';
import { MemberNameSchema, TimestampSchema } from './names.js';

/** What can prove a criterion met: a task of the run, a commit, or a message. */
export const EVIDENCE_KINDS = ['task', 'commit', 'message'] as const;
/** A kind of evidence. */
export type EvidenceKind = (typeof EVIDENCE_KINDS)[number];

/** One piece of evidence attached to an acceptance criterion. */
export const CriterionEvidenceSchema = z.strictObject({
  kind: z.enum(EVIDENCE_KINDS),
  /** A task id, a full commit sha, or a message id; checked when attached. */
  ref: z.string().min(1).max(100),
  note: z.string().max(2_000).optional(),
  /** Who attached it: the lead or the user. */
  by: MemberNameSchema,
  at: TimestampSchema,
});
/** Evidence for a criterion. */
export type CriterionEvidence = z.infer<typeof CriterionEvidenceSchema>;

/** A criterion the user let go: it no longer keeps the run from completing. */
export const CriterionWaiverSchema = z.strictObject({
  by: MemberNameSchema,
  at: TimestampSchema,
  reason: z.string().min(1).max(2_000),
});

/** An id of a criterion: `1`, `2`, … in the order they were added. */
export const CriterionIdSchema = z
  .string()
  .regex(/^[1-9][0-9]{0,2}$/, 'criterion id must be a number from 1 to 999');

/** One acceptance criterion of a run's goal. */
export const AcceptanceCriterionSchema = z.strictObject({
  id: CriterionIdSchema,
  text: z.string().min(1).max(2_000),
  addedBy: MemberNameSchema,
  addedAt: TimestampSchema,
  evidence: z.array(CriterionEvidenceSchema).max(100).default([]),
  waived: CriterionWaiverSchema.optional(),
});
/** An acceptance criterion. */
export type AcceptanceCriterion = z.infer<typeof AcceptanceCriterionSchema>;

/**
 * What a run is for: a goal in words and the acceptance criteria that must each have
 * evidence (or a waiver from the user) before the run counts as `completed`.
 */
export const RunGoalSchema = z.strictObject({
  text: z.string().min(1).max(4_000),
  setBy: MemberNameSchema,
  setAt: TimestampSchema,
  criteria: z.array(AcceptanceCriterionSchema).max(50).default([]),
});
/** A run's goal and its acceptance criteria. */
export type RunGoal = z.infer<typeof RunGoalSchema>;
