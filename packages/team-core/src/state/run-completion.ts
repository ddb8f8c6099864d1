import { z } from 'zod';
import type { AcceptanceCriterion } from '../schema/run-goal.js';
import type { RuntimeState } from '../schema/runtime-state.js';
import { parseInput } from './parse-input.js';
import { unmetCriteria } from './run-goal.js';
import { readRunState, transitionMember, updateRunState } from './run-state-store.js';
import { resolveStateOptions, type StateOptions } from './state-options.js';
import { WORKING_RUN_STATUSES } from './status-machines.js';

/** Whether a run's work is over, as {@link decideRunCompletion} judges it. */
export type CompletionDecision =
  /** Members still work (or wait to start), or the lead's process still runs. */
  | { outcome: 'working' }
  /** The work looks over, but criteria lack evidence: the run must not quietly end. */
  | { outcome: 'unmet'; unmet: AcceptanceCriterion[]; reason: string }
  /** Every member is done, the lead's process ended, every criterion is met or waived. */
  | { outcome: 'complete' }
  /** The run is not working (already completed, stopped, failed, ...). */
  | { outcome: 'not-working'; status: RuntimeState['status'] };

/** What the caller knows that the state cannot say: whether the lead's process has ended. */
export interface CompletionFacts {
  leadEnded: boolean;
}

const DONE_MEMBER = new Set<RuntimeState['members'][number]['status']>(['terminated', 'errored']);

/** The status reason a run keeps while criteria are unmet; the same words for the same set. */
export function unmetReason(unmet: readonly AcceptanceCriterion[]): string {
  const list = unmet.map((criterion) => `${criterion.id} (${criterion.text})`).join('; ');
  return `waiting for evidence: acceptance ${unmet.length === 1 ? 'criterion' : 'criteria'} ${list} ${unmet.length === 1 ? 'has' : 'have'} none. Attach evidence (team run criteria evidence) or, as the user, waive (team run criteria waive).`.slice(
    0,
    4_000,
  );
}

/**
 * Decides whether a working run's work is over: every member other than the lead is
 * `terminated` or `errored` and the lead's process has ended (the lead's turn-based
 * runner exits by itself once the others are done). With a goal, each acceptance
 * criterion must also have evidence or a waiver; otherwise the run is `unmet` — as soon
 * as the members are done, so the lead can still act on it. A lead working alone is
 * judged only once its process ended.
 */
export function decideRunCompletion(
  state: RuntimeState,
  facts: CompletionFacts,
): CompletionDecision {
  if (!WORKING_RUN_STATUSES.includes(state.status))
    return { outcome: 'not-working', status: state.status };
  const others = state.members.filter((member) => !member.isLead);
  if (!others.every((member) => DONE_MEMBER.has(member.status))) return { outcome: 'working' };
  if (others.length === 0 && !facts.leadEnded) return { outcome: 'working' };
  const unmet = unmetCriteria(state);
  if (unmet.length > 0) return { outcome: 'unmet', unmet, reason: unmetReason(unmet) };
  return facts.leadEnded ? { outcome: 'complete' } : { outcome: 'working' };
}

/** What {@link completeRun} decided and whether it changed the state. */
export type CompleteRunResult = CompletionDecision & {
  /** True when this call completed the run or recorded a new unmet reason. */
  changed: boolean;
  state: RuntimeState;
};

/**
 * Moves a run whose work is over to `completed` (see {@link decideRunCompletion}): the
 * lead, whose process ended, becomes `terminated`, and the run keeps its worktrees,
 * branches and mail until it is stopped. With unmet criteria the run stays working and
 * its status reason names them; `changed` says when that reason is new, so the caller
 * tells the lead and the user once, not on every look.
 */
export async function completeRun(
  home: string,
  runId: string,
  facts: CompletionFacts,
  options: StateOptions,
): Promise<CompleteRunResult> {
  const { now } = resolveStateOptions(options);
  parseInput(z.object({ leadEnded: z.boolean() }), facts, 'the completion facts');
  let state = await readRunState(home, runId, options);
  const decision = decideRunCompletion(state, facts);
  if (decision.outcome === 'unmet') {
    if (state.statusReason === decision.reason) return { ...decision, changed: false, state };
    state = await updateRunState(
      home,
      runId,
      (draft) => {
        // Judged again under the lock: evidence may have arrived meanwhile.
        const again = decideRunCompletion(draft, facts);
        if (again.outcome === 'unmet') draft.statusReason = again.reason;
        return draft;
      },
      options,
    );
    return { ...decision, changed: state.statusReason === decision.reason, state };
  }
  if (decision.outcome !== 'complete') return { ...decision, changed: false, state };
  const reason = 'its process ended once the work was over';
  for (const lead of state.members.filter((member) => member.isLead)) {
    if (DONE_MEMBER.has(lead.status)) continue;
    if (lead.status !== 'shutdown_approved')
      await transitionMember(home, runId, lead.name, 'shutdown_approved', { ...options, reason });
    await transitionMember(home, runId, lead.name, 'terminated', { ...options, reason });
  }
  let changed = false;
  state = await updateRunState(
    home,
    runId,
    (draft) => {
      if (decideRunCompletion(draft, facts).outcome !== 'complete') return draft;
      draft.status = 'completed';
      draft.completedAt = now();
      draft.statusReason =
        draft.goal === undefined || draft.goal.criteria.length === 0
          ? 'every member finished'
          : 'every member finished and every acceptance criterion is met or waived';
      changed = true;
      return draft;
    },
    options,
  );
  return changed
    ? { outcome: 'complete', changed, state }
    : { ...decideRunCompletion(state, facts), changed, state };
}
