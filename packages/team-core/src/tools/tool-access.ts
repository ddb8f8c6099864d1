import { TeamkitError } from '../errors/index.js';
import type { AnyTeamTool, TeamToolCaller, TeamToolNamer, TeamToolRole } from './team-tool.js';

/** The roles a caller holds: a lead is also a member; the user is only the user. */
export function callerRoles(caller: TeamToolCaller): TeamToolRole[] {
  switch (caller.kind) {
    case 'member':
      return caller.isLead ? ['member', 'lead'] : ['member'];
    case 'user':
      return ['user'];
    case 'observer':
      return ['observer'];
  }
}

/** Whether `caller` holds one of the tool's roles (observers: read-only tools only). */
export function mayCallTool(tool: AnyTeamTool, caller: TeamToolCaller): boolean {
  if (caller.kind === 'observer' && !tool.readOnly) return false;
  return callerRoles(caller).some((role) => tool.roles.includes(role));
}

/**
 * Refuses a caller without one of the tool's roles, before anything is read or written:
 * the tool's own refusal when it words one, else `NOT_LEAD` for a member calling a lead
 * tool and `PERMISSION_DENIED` otherwise.
 */
export function assertMayCallTool(
  tool: AnyTeamTool,
  caller: TeamToolCaller,
  operation: string,
  name: TeamToolNamer = (base) => base,
): void {
  if (mayCallTool(tool, caller)) return;
  const worded = tool.refusal?.(caller, name);
  if (worded !== undefined) throw worded;
  if (caller.kind === 'member' && tool.roles.includes('lead')) {
    const lead = caller.lead === undefined ? '' : ` (${caller.lead})`;
    throw new TeamkitError('NOT_LEAD', `Only the lead${lead} may ${operation}.`, {
      details: { tool: tool.name, member: caller.member, lead: caller.lead },
    });
  }
  if (caller.kind === 'member') {
    throw new TeamkitError(
      'PERMISSION_DENIED',
      `You are ${caller.member} in run ${caller.runId}; members cannot ${operation}.${caller.lead === undefined ? '' : ` Ask the lead (${caller.lead}) instead.`}`,
      { details: { tool: tool.name, member: caller.member } },
    );
  }
  if (caller.kind === 'observer') {
    throw new TeamkitError(
      'PERMISSION_DENIED',
      `This caller has no Teamkit identity, so it may only read; it may not ${operation}. Start it as a member (TEAMKIT_MEMBER) or, for the user, with --as user.`,
      { details: { tool: tool.name } },
    );
  }
  throw new TeamkitError('PERMISSION_DENIED', `The user may not ${operation} with this tool.`, {
    details: { tool: tool.name },
  });
}
