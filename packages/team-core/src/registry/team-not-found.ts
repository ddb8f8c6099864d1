import { closestId } from './closest-id.js';

/** A skipped team as `TEAM_NOT_FOUND` reports it. */
export interface SkippedTeamHint {
  id: string;
  code: string;
  reason: string;
  file: string;
}

/** What `TEAM_NOT_FOUND` adds to its message and its `details` about a missing id. */
export interface TeamNotFoundHints {
  /** Sentences to append to the message (each starts with a space), or `''`. */
  text: string;
  details: { skipped: SkippedTeamHint[]; suggestion?: string };
}

/**
 * Why `id` may be missing and what was probably meant: every team the library skipped,
 * with its reason (the one with this very id first), and the closest of `candidates` and
 * the skipped ids, so a typo or a broken team folder is named instead of hidden.
 */
export function teamNotFoundHints(
  skippedTeams: readonly SkippedTeamHint[],
  id: string,
  candidates: readonly string[],
): TeamNotFoundHints {
  const skipped = skippedTeams
    .map(({ id: skippedId, code, reason, file }) => ({ id: skippedId, code, reason, file }))
    .sort((a, b) => Number(b.id === id) - Number(a.id === id));
  const suggestion = skipped.some((team) => team.id === id)
    ? undefined
    : closestId(id, [...candidates, ...skipped.map((team) => team.id)]);
  const parts: string[] = [];
  const [first, ...rest] = skipped;
  if (first !== undefined && first.id === id) {
    parts.push(
      ` Team "${id}" is registered but was skipped: ${first.code} in ${first.file}: ${first.reason}`,
    );
  } else if (suggestion !== undefined) {
    parts.push(` Did you mean "${suggestion}"?`);
  }
  const others = first !== undefined && first.id === id ? rest : skipped;
  if (others.length > 0) {
    const listed = others.map((team) => `"${team.id}" (${team.code}: ${team.reason})`);
    parts.push(` Skipped teams: ${listed.join('; ')}`);
  }
  return {
    text: parts.join(''),
    details: { skipped, ...(suggestion === undefined ? {} : { suggestion }) },
  };
}
