import type { Output } from './output.js';

/** A file a listing could not use, as team-core reports it. */
export interface ListedProblem {
  path: string;
  code: string;
  message: string;
}

/**
 * One line per problem a listing reported (a corrupt task, message or state file), so
 * what could not be read is shown instead of silently missing from the list.
 */
export function problemLines(output: Output, problems: readonly ListedProblem[]): string[] {
  return problems.map(
    (problem) => `${output.style('yellow', 'problem')} ${problem.code}: ${problem.message}`,
  );
}
