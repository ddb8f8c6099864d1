import type { RunMember, RuntimeState } from '../schema/index.js';
import { findLead, listRuns, type StateOptions, WRITABLE_RUN_STATUSES } from '../state/index.js';

/** The run and member a host session belongs to. */
export interface SessionMember {
  runId: string;
  member: string;
  isLead: boolean;
  /** The run's lead, by name; `undefined` only for a roster edited by hand. */
  lead: string | undefined;
  /** The run state the answer was read from. */
  state: RuntimeState;
}

/**
 * Finds the run and member a host session belongs to, by one rule for every adapter:
 * only runs that are being set up or doing their work (`creating`, `active`,
 * `shutdown_requested`) count, a member that was terminated no longer owns its session,
 * and when a session belongs to several such runs (a lead session that started a new run)
 * the newest run wins. Unreadable run states are skipped, as `listRuns` reports them.
 */
export async function findSessionMember(
  home: string,
  sessionId: string,
  options: StateOptions,
): Promise<SessionMember | undefined> {
  const { runs } = await listRuns(home, options);
  for (const state of [...runs].reverse()) {
    if (!WRITABLE_RUN_STATUSES.includes(state.status)) continue;
    const member = state.members.find((candidate) => ownsSession(candidate, sessionId));
    if (member === undefined) continue;
    return {
      runId: state.runId,
      member: member.name,
      isLead: member.isLead,
      lead: findLead(state)?.name,
      state,
    };
  }
  return undefined;
}

function ownsSession(member: RunMember, sessionId: string): boolean {
  return member.sessionId === sessionId && member.status !== 'terminated';
}
