import { TeamkitError } from '../errors/index.js';
import type { RunMember, RuntimeState } from '../schema/runtime-state.js';

/** The run's lead, or `undefined` when the roster has none (a hand-edited state). */
export function findLead(state: RuntimeState): RunMember | undefined {
  return state.members.find((member) => member.isLead);
}

/** The run's lead; a run without one is refused with `INVALID_INPUT` naming the run. */
export function requireLead(state: RuntimeState): RunMember {
  const lead = findLead(state);
  if (lead === undefined) {
    throw new TeamkitError(
      'INVALID_INPUT',
      `Run ${state.runId} has no lead in its state; its roster was edited by hand. Restore state.json or stop the run.`,
      { details: { runId: state.runId } },
    );
  }
  return lead;
}
