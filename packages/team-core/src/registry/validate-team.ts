import { TeamkitError } from '../errors/index.js';
import { describeIssues } from '../schema/describe-issues.js';
import { type TeamSpec, TeamSpecSchema } from '../schema/index.js';
import type { MemberIdRegistry, MemberIdTransaction } from './member-id-registry.js';
import type { ParsedTeam } from './team-package.js';

/** A validated team whose member ids are registered but not yet committed. */
export interface ValidatedTeam {
  spec: TeamSpec;
  memberIds: MemberIdTransaction;
}

function reject(team: ParsedTeam, reason: string): TeamkitError {
  return new TeamkitError('INVALID_TEAM', `${team.manifestFile}: ${reason}`, {
    details: { path: team.manifestFile, teamId: team.id },
  });
}

/**
 * Validates a parsed team against the normalised model: registers each member id in
 * `registry` (catching duplicate names), then checks the lead, that every member has a
 * prompt (agent file or inline), the policy limits and the full TeamSpec schema. On any
 * failure the member ids registered so far are rolled back and `INVALID_TEAM` is thrown.
 */
export function validateTeam(team: ParsedTeam, registry: MemberIdRegistry): ValidatedTeam {
  const memberIds = registry.begin(team.id, team.manifestFile);
  try {
    for (const member of team.members) memberIds.register(member.name);
    const names = team.members.map((member) => member.name);
    if (team.lead === undefined || !names.includes(team.lead)) {
      throw reject(
        team,
        `lead "${team.lead ?? ''}" is not a member of the team (members: ${names.join(', ')}).`,
      );
    }
    const withoutPrompt = team.members.filter((member) => member.prompt === undefined);
    if (withoutPrompt.length > 0 && team.format === 'package') {
      const expected = withoutPrompt.map(
        (member) => team.expectedAgentFiles[member.name] ?? member.name,
      );
      throw reject(
        team,
        withoutPrompt.length === team.members.length
          ? `no agent files: expected ${expected.join(', ')} (or an inline prompt per member).`
          : `member${withoutPrompt.length > 1 ? 's' : ''} ${withoutPrompt.map((m) => `"${m.name}"`).join(', ')} ha${withoutPrompt.length > 1 ? 've' : 's'} no agent file (expected ${expected.join(', ')}) and no inline prompt.`,
      );
    }
    if (withoutPrompt.length > 0) {
      throw reject(
        team,
        `member${withoutPrompt.length > 1 ? 's' : ''} ${withoutPrompt.map((m) => `"${m.name}"`).join(', ')} ha${withoutPrompt.length > 1 ? 've' : 's'} no prompt.`,
      );
    }
    const { bounds } = team.policy;
    if (team.members.length > bounds.maxMembers) {
      throw reject(
        team,
        `limits exceeded: ${team.members.length} members, but the policy allows maxMembers=${bounds.maxMembers}.`,
      );
    }
    const parsed = TeamSpecSchema.safeParse({
      version: 1,
      id: team.id,
      name: team.name,
      description: team.description,
      lead: team.lead,
      members: team.members,
      policy: team.policy,
      ...(team.teamDoc === undefined ? {} : { teamDoc: team.teamDoc }),
    });
    if (!parsed.success) {
      const issues = describeIssues(parsed.error, 3);
      throw reject(team, issues.join('; '));
    }
    return { spec: parsed.data, memberIds };
  } catch (error) {
    memberIds.rollback();
    throw error;
  }
}
