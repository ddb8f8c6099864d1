import { TeamkitError } from '../errors/index.js';
import { USER_PARTICIPANT } from '../schema/names.js';
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

/**
 * Finds who acts in a run: a member of its roster, or the user (`user`), who is no member
 * of the roster but takes part with the lead's rights. The user comes back as a
 * participant record with `isLead: true` (the rights) and `role: "user"`; it is never
 * stored, spawned, probed for liveness or counted by a bound. Anyone else is
 * `UNKNOWN_MEMBER`.
 */
export function findParticipant(state: RuntimeState, name: string): RunMember {
  if (name === USER_PARTICIPANT) return userParticipant();
  return findMember(state, name);
}

/** The user as a participant: lead rights, always present, no session. */
export function userParticipant(): RunMember {
  return {
    name: USER_PARTICIPANT,
    role: 'user',
    isLead: true,
    status: 'running',
    pendingDeliveryIds: [],
    turns: 0,
  };
}

/** True for the user and for the run's lead: the two who may act for the whole run. */
export function hasLeadRights(state: RuntimeState, name: string): boolean {
  return name === USER_PARTICIPANT || state.members.some((m) => m.name === name && m.isLead);
}

/** True when the member takes part in broadcasts and may own open work. */
export function isActiveMember(member: RunMember): boolean {
  return !INACTIVE_MEMBER_STATUSES.includes(member.status);
}

/** Members the parallel bound counts: non-lead members that are working right now. */
export function countParallelMembers(state: RuntimeState): number {
  return state.members.filter((member) => !member.isLead && member.status === 'running').length;
}
