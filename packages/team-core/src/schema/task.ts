import { z } from 'zod';
import { MemberNameSchema, TaskIdSchema, TimestampSchema } from './names.js';

/** Every task status; see the task list's status machine for the allowed moves. */
export const TASK_STATUSES = [
  'pending',
  'claimed',
  'in_progress',
  'completed',
  'in_review',
  'approved',
  'blocked',
  'cancelled',
  'deleted',
] as const;

/** A task status. */
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** A full git commit id (40 hex digits for SHA-1, 64 for SHA-256 repositories). */
const CommitIdSchema = z.string().regex(/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/, 'a full commit id');

/**
 * The work behind a task: the owner's branch and its head commit when the task was last
 * completed or offered for review. `team run merge` merges this commit.
 */
export const TaskWorkSchema = z.strictObject({
  member: MemberNameSchema,
  branch: z.string().min(1).max(255),
  commit: CommitIdSchema,
  /** Changed files the owner had not committed then; they are not part of the work. */
  uncommittedFiles: z.number().int().nonnegative().default(0),
  recordedAt: TimestampSchema,
});
/** The recorded work of a task. */
export type TaskWork = z.infer<typeof TaskWorkSchema>;

/** One task as stored in `tasks/<id>.json`. */
export const TaskSchema = z.object({
  version: z.literal(1),
  id: TaskIdSchema,
  subject: z.string().min(1).max(500),
  description: z.string().max(20_000),
  activeForm: z.string().max(500).optional(),
  status: z.enum(TASK_STATUSES),
  owner: MemberNameSchema.optional(),
  blocks: z.array(TaskIdSchema).default([]),
  blockedBy: z.array(TaskIdSchema).default([]),
  needsFix: z.boolean().optional(),
  reviewNote: z.string().max(20_000).optional(),
  blockedReason: z.string().max(2_000).optional(),
  cancelledReason: z.string().max(2_000).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  work: TaskWorkSchema.optional(),
  createdAt: TimestampSchema,
  updatedAt: TimestampSchema,
  claimedAt: TimestampSchema.optional(),
  completedAt: TimestampSchema.optional(),
  /**
   * How many times the task was changed since it was created: each change writes the
   * next number by compare-and-set, and logs it with its event, so the order of a task's
   * events is known whatever order concurrent writers appended them in.
   */
  sequence: z.number().int().nonnegative().optional(),
});

/** A stored task. */
export type Task = z.infer<typeof TaskSchema>;
