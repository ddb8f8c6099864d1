import { z } from 'zod';
import { MemberNameSchema, RunIdSchema, TimestampSchema } from './names.js';

/** An artifact name: lowercase letters and digits, in parts joined by single `-`, `_` or `.`; 1–64 characters. */
export const ARTIFACT_NAME_PATTERN = /^[a-z0-9]+(?:[-_.][a-z0-9]+)*$/;

/** An artifact's name, e.g. `design`, `review-round-2`, `findings.api`. */
export const ArtifactNameSchema = z
  .string()
  .min(1, 'artifact name must not be empty')
  .max(64, 'artifact name must be at most 64 characters')
  .regex(
    ARTIFACT_NAME_PATTERN,
    'artifact name is lowercase letters and digits joined by single "-", "_" or "."',
  );

/**
 * One version of a named Markdown deliverable of a run
 * (`runtime/<runId>/artifacts/<name>/<version>.json`). Versions are never overwritten:
 * a revision is the next version.
 */
export const ArtifactSchema = z.object({
  version: z.literal(1),
  runId: RunIdSchema,
  name: ArtifactNameSchema,
  /** 1, 2, 3, … per name. */
  revision: z.number().int().positive(),
  author: MemberNameSchema,
  createdAt: TimestampSchema,
  title: z.string().max(200).optional(),
  /** The Markdown text. */
  body: z.string(),
  /** The body's size in UTF-8 bytes. */
  bytes: z.number().int().nonnegative(),
});
/** One stored version of an artifact. */
export type Artifact = z.infer<typeof ArtifactSchema>;
