import { TeamkitError } from '../errors/index.js';
import type { RuntimeState } from '../schema/runtime-state.js';
import { findMember } from './run-members.js';
import { updateRunState } from './run-state-store.js';
import type { StateOptions } from './state-options.js';

/** The placement of a member left for another machine to join (`team run join`). */
export const ELSEWHERE = 'elsewhere';

const MACHINE_ID = /^[a-z0-9][a-z0-9-]{0,63}$/;

/**
 * Places pending members on `machine` (an id, or {@link ELSEWHERE}), in one state write:
 * only that machine's runtime starts them. A member may be placed while it is `pending`
 * with no session and not placed on a third machine, so two machines joining one member
 * at once cannot both win: the loser gets `INVALID_INPUT` naming where it runs.
 */
export async function placeMembers(
  home: string,
  runId: string,
  members: readonly string[],
  machine: string,
  options: StateOptions,
): Promise<RuntimeState> {
  if (!MACHINE_ID.test(machine)) {
    throw new TeamkitError('INVALID_INPUT', `"${machine}" is not a machine id.`, {
      details: { machine },
    });
  }
  return updateRunState(
    home,
    runId,
    (draft) => {
      for (const name of members) {
        const target = findMember(draft, name);
        const free =
          target.machine === undefined ||
          target.machine === ELSEWHERE ||
          target.machine === machine;
        if (target.status !== 'pending' || target.sessionId !== undefined || !free) {
          throw new TeamkitError(
            'INVALID_INPUT',
            `Member "${name}" of run ${runId} cannot join here: it is ${target.status}${target.machine === undefined ? '' : ` on machine ${target.machine}`}. Only members the run left for another machine (\`team run start --elsewhere\`) can join.`,
            { details: { runId, member: name, status: target.status, machine: target.machine } },
          );
        }
        target.machine = machine;
      }
      return draft;
    },
    options,
  );
}
