import { UsageError } from '../../exit-codes.js';

/**
 * The goal `team run start` was given: `--goal "<text>"` with any number of
 * `--criterion "<text>"`. Criteria without a goal are a usage error: they belong to one.
 */
export function goalOf(
  options: Record<string, unknown>,
): { text: string; criteria: string[] } | undefined {
  const criteria = Array.isArray(options.criterion) ? options.criterion.map(String) : [];
  if (typeof options.goal !== 'string') {
    if (criteria.length > 0)
      throw new UsageError(
        '--criterion belongs to a goal: give --goal "<what the run is for>" too.',
      );
    return undefined;
  }
  return { text: options.goal, criteria };
}
