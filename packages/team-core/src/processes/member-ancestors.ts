import { listProcessAncestry } from './process-ancestry.js';
import { type ProcessFacts, readProcessEnvironment } from './process-facts.js';

/** The variables a host sets in a member's process. */
export const MEMBER_VARIABLES = {
  home: 'TEAMKIT_HOME',
  run: 'TEAMKIT_RUN',
  member: 'TEAMKIT_MEMBER',
  /** The member's secret; only its hash is kept on disk. */
  token: 'TEAMKIT_TOKEN',
} as const;

/** An ancestor process that was started as a member (its start environment says so). */
export interface MemberAncestor {
  process: ProcessFacts;
  home: string;
  runId: string;
  member: string;
}

/**
 * The ancestors of `pid` (itself included), nearest first, that were started with a
 * member's `TEAMKIT_HOME`, `TEAMKIT_RUN` and `TEAMKIT_MEMBER`. The start environment is
 * read from `/proc`, so removing the variables in a child does not hide the ancestor.
 * These are only candidates: a caller confirms one by matching its pid and start time
 * against the session the run recorded for that member. Empty without `/proc`.
 */
export function findMemberAncestors(pid: number = process.pid): MemberAncestor[] {
  const found: MemberAncestor[] = [];
  for (const facts of listProcessAncestry(pid)) {
    const environment = readProcessEnvironment(facts.pid);
    const home = environment?.get(MEMBER_VARIABLES.home);
    const runId = environment?.get(MEMBER_VARIABLES.run);
    const member = environment?.get(MEMBER_VARIABLES.member);
    if (!home || !runId || !member) continue;
    found.push({ process: facts, home, runId, member });
  }
  return found;
}
