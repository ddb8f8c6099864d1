import { TeamkitError } from '../errors/index.js';
import type { MemberStatus, RunMember, RuntimeState } from '../schema/runtime-state.js';
import { parseInput } from './parse-input.js';
import { MemberArgument } from './state-inputs.js';

/** Member statuses that take no part in broadcasts and own no open work. */
export const INACTIVE_MEMBER_STATUSES: readonly MemberStatus[] = [
  'terminated',
  'shutdown_approved',
  'errored',
];

/** Finds a member of the run or throws `UNKNOWN_MEMBER`, naming the roster. */
export function findMember(state: RuntimeState, member: string): RunMember {
  parseInput(MemberArgument, member, 'the member name');
  const found = state.members.find((candidate) => candidate.name === member);
  if (found === undefined) {
    const members = state.members.map((candidate) => candidate.name);
    throw new TeamkitError(
      'UNKNOWN_MEMBER',
      `Run ${state.runId} has no member ${JSON.stringify(member)}; members are: ${members.join(', ')}.`,
      { details: { runId: state.runId, member, members } },
    );
  }
  return found;
}

/** True when the member takes part in broadcasts and may own open work. */
export function isActiveMember(member: RunMember): boolean {
  return !INACTIVE_MEMBER_STATUSES.includes(member.status);
}

/** Members the parallel bound counts: non-lead members that are working right now. */
export function countParallelMembers(state: RuntimeState): number {
  return state.members.filter((member) => !member.isLead && member.status === 'running').length;
}
