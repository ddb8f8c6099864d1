/**
 * What a run id looks like: a UUID (the form `randomUUID()` gives). Kept apart from the
 * zod schemas so that listing runs needs no schema library: the pattern of zod's `uuid()`,
 * which `RunIdSchema` is (a test keeps the two the same).
 */
export const RUN_ID_PATTERN =
  /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/;

/** Whether `name` is a run id (see {@link RUN_ID_PATTERN}). */
export function isRunId(name: string): boolean {
  return RUN_ID_PATTERN.test(name);
}
