import { type ProcessFacts, readProcessFacts } from './process-facts.js';

/** How many parent links {@link listProcessAncestry} follows at most. */
export const MAX_ANCESTRY_DEPTH = 128;

/**
 * Process `pid` and its ancestors, nearest first, following parent links until init
 * (or a process that cannot be read). Each entry carries its start time, so a caller
 * can match an ancestor against a recorded process by pid and start time.
 */
export function listProcessAncestry(pid: number = process.pid): ProcessFacts[] {
  const chain: ProcessFacts[] = [];
  const seen = new Set<number>();
  let next = pid;
  while (chain.length < MAX_ANCESTRY_DEPTH && next > 1 && !seen.has(next)) {
    seen.add(next);
    const facts = readProcessFacts(next);
    if (facts === undefined) break;
    chain.push(facts);
    next = facts.parentPid;
  }
  return chain;
}
