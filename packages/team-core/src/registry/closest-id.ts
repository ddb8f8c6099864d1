/**
 * The number of single-character insertions, deletions and substitutions that turn `a`
 * into `b` (Levenshtein distance), with two rows of the table kept.
 */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * The candidate closest to `wanted` for a "did you mean" hint, or `undefined` when none is
 * close: at most a third of the longer id's characters (and at least one) may differ, and
 * on a tie the earlier candidate wins. `wanted` itself is never suggested.
 */
export function closestId(wanted: string, candidates: readonly string[]): string | undefined {
  let best: { id: string; distance: number } | undefined;
  for (const candidate of new Set(candidates)) {
    if (candidate === wanted) continue;
    const distance = editDistance(wanted, candidate);
    const allowed = Math.max(1, Math.floor(Math.max(wanted.length, candidate.length) / 3));
    if (distance > allowed) continue;
    if (best === undefined || distance < best.distance) best = { id: candidate, distance };
  }
  return best?.id;
}
