import type { z } from 'zod';

/**
 * The first `limit` issues of a failed parse, each as `path: message` (`(root)` for the
 * value itself), for error messages and their details.
 */
export function describeIssues(error: z.ZodError, limit = 5): string[] {
  return error.issues
    .slice(0, limit)
    .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
}
