import { TeamkitError } from '@teamkit/team-core';
import { findLead } from '@teamkit/team-core/state';
import {
  type AuthenticatedCaller,
  defaultClientSource,
  type MemberClientSource,
  noRun,
  type ServerIdentity,
} from './server-identity.js';

/** The argument a shared server takes to act for one of several agents. */
export const ACTING_MEMBER_ARGUMENT = 'asMember';

/** How a server treats the acting-member argument. */
export interface ActingMemberPolicy {
  /** Whether the argument is accepted at all (`--member-argument`). */
  enabled: boolean;
  /** The only members it may name (`--members`); any member of the run when absent. */
  allowed?: readonly string[];
}

/**
 * Switches an authenticated call to the member its `asMember` argument names, for a server
 * configured to serve several agents (an OpenCode process with child sessions, Claude Code
 * subagents). Accepted only when configured, only from a server that acts as the user or as
 * the run's lead, and only for a live member of the run's roster (and of `--members`);
 * everything else is `PERMISSION_DENIED` or `UNKNOWN_MEMBER`, before anything is written.
 */
export function actAsMember(
  authenticated: AuthenticatedCaller,
  identity: ServerIdentity,
  requested: string,
  policy: ActingMemberPolicy,
  clientFor: MemberClientSource = defaultClientSource(identity.home, identity.store),
): AuthenticatedCaller {
  const { caller, state } = authenticated;
  if (state === undefined) throw noRun();
  if (!policy.enabled) {
    throw new TeamkitError(
      'PERMISSION_DENIED',
      `This server does not take ${ACTING_MEMBER_ARGUMENT}: it acts only as whom its host started it for.`,
      { details: { requested } },
    );
  }
  const servesTeam = caller.kind === 'user' || (caller.kind === 'member' && caller.isLead);
  if (!servesTeam) {
    throw new TeamkitError(
      'PERMISSION_DENIED',
      `Only a server acting as the user or as the run's lead may act for other members; this one is ${caller.kind === 'member' ? caller.member : caller.kind}.`,
      { details: { requested } },
    );
  }
  if (policy.allowed !== undefined && !policy.allowed.includes(requested)) {
    throw new TeamkitError(
      'PERMISSION_DENIED',
      `This server may act only for ${policy.allowed.join(', ')}, not "${requested}".`,
      { details: { requested, allowed: policy.allowed } },
    );
  }
  const record = state.members.find((candidate) => candidate.name === requested);
  if (record === undefined || record.status === 'terminated') {
    throw new TeamkitError(
      'UNKNOWN_MEMBER',
      `Run ${state.runId} has no ${record === undefined ? '' : 'live '}member "${requested}" (members: ${state.members.map((member) => member.name).join(', ')}).`,
      { details: { runId: state.runId, requested } },
    );
  }
  const lead = findLead(state)?.name;
  return {
    caller: {
      kind: 'member',
      runId: state.runId,
      member: record.name,
      isLead: record.isLead,
      teamName: state.teamName,
      ...(lead === undefined ? {} : { lead }),
    },
    client: clientFor(state.runId, record.name),
    state,
  };
}
