import { z } from 'zod';
import { MemberNameSchema, RunIdSchema, TaskIdSchema, TimestampSchema } from './names.js';

const CommitSchema = z.string().regex(/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/, 'a full commit id');

/** One task's work as one merge took it in. */
export const MergedTaskSchema = z.strictObject({
  id: TaskIdSchema,
  /** The task's recorded work commit. */
  commit: CommitSchema,
  /** `merged` with a merge commit of its own, or `already-merged` (the branch had it). */
  outcome: z.enum(['merged', 'already-merged']),
  mergeCommit: CommitSchema.optional(),
});
/** A task as a merge took it in. */
export type MergedTask = z.infer<typeof MergedTaskSchema>;

/** One `team run merge`: which branch moved from where to where, with which tasks. */
export const RunMergeSchema = z.strictObject({
  at: TimestampSchema,
  by: MemberNameSchema,
  /** The branch that now holds the work. */
  into: z.string().min(1).max(255),
  /** The branch asked for, when the work went elsewhere (see `fellBackReason`). */
  requestedInto: z.string().min(1).max(255).optional(),
  fellBackReason: z.string().max(2_000).optional(),
  /** The branch's commit before; absent when the merge created the branch. */
  from: CommitSchema.optional(),
  to: CommitSchema,
  tasks: z.array(MergedTaskSchema).max(10_000),
});
/** One merge of a run's work. */
export type RunMerge = z.infer<typeof RunMergeSchema>;

/** `runtime/<runId>/merges.json`: every merge of the run's work, oldest first. */
export const RunMergesSchema = z.strictObject({
  version: z.literal(1),
  runId: RunIdSchema,
  merges: z.array(RunMergeSchema).max(1_000),
});
/** A run's merge record. */
export type RunMerges = z.infer<typeof RunMergesSchema>;
