import type { z } from 'zod';
import { TeamkitError } from '../errors/index.js';
import { describeIssues } from '../schema/describe-issues.js';

/**
 * Checks a caller's argument against `schema` and returns the parsed value; anything
 * else is refused with `INVALID_INPUT` naming `what` and the failing fields, so no
 * public function lets a raw validation or type error escape.
 */
export function parseInput<S extends z.ZodType>(
  schema: S,
  value: unknown,
  what: string,
): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = describeIssues(parsed.error);
  throw new TeamkitError('INVALID_INPUT', `Refused ${what}: ${issues.join('; ')}.`, {
    details: { issues },
  });
}
