import { z } from 'zod';
import { RunIdSchema, TimestampSchema } from './names.js';

/**
 * One line of `runtime/<runId>/events.jsonl`: who did what to which ids. Bodies and
 * prompts are never logged.
 */
export const RunEventSchema = z.object({
  version: z.literal(1),
  at: TimestampSchema,
  runId: RunIdSchema,
  actor: z.string().min(1).max(200),
  type: z.string().min(1).max(100),
  ids: z.array(z.string()).optional(),
  data: z.record(z.string(), z.unknown()).optional(),
});
/** One event of a run's log. */
export type RunEvent = z.infer<typeof RunEventSchema>;
