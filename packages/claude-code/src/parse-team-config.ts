import type { ClaudeTeamMember } from './claude-team-view.js';
import {
  definedFields,
  isPlainObject,
  optionalBoolean,
  optionalNumber,
  optionalString,
  unknownFields,
} from './plain-object.js';

/** The lead process a team config names (Claude Code 2.1.178 and later). */
export interface ClaudeLeadProcess {
  readonly pid: number;
  /** `<hostname>#<pid namespace>`: whose process table `pid` belongs to. */
  readonly pidSpace: string;
  readonly claimedAt: number;
  /** On Linux, field 22 of `/proc/<pid>/stat` (start time in clock ticks), as a string. */
  readonly procStart?: string;
}

/** A team's `config.json`, read the way Claude Code reads it. */
export interface ClaudeTeamConfig {
  readonly name: string;
  readonly description?: string;
  readonly createdAt?: number;
  readonly leadAgentId?: string;
  readonly leadSessionId?: string;
  readonly leadProcess?: ClaudeLeadProcess;
  readonly members: readonly ClaudeTeamMember[];
  readonly extra?: Record<string, unknown>;
}

const TOP_LEVEL = new Set([
  'name',
  'teamName',
  'description',
  'createdAt',
  'leadAgentId',
  'leadSessionId',
  'leadProcess',
  'members',
  'hiddenPaneIds',
  'teamAllowedPaths',
]);

const MEMBER_FIELDS = new Set([
  'agentId',
  'name',
  'agentType',
  'model',
  'prompt',
  'color',
  'planModeRequired',
  'joinedAt',
  'tmuxPaneId',
  'cwd',
  'worktreePath',
  'sessionId',
  'subscriptions',
  'backendType',
  'isActive',
  'mode',
]);

function parseLeadProcess(value: unknown): ClaudeLeadProcess | undefined {
  // The same test Claude Code applies before it trusts the field.
  if (!isPlainObject(value)) return undefined;
  const { pid, pidSpace, claimedAt, procStart } = value;
  if (typeof pid !== 'number' || !Number.isSafeInteger(pid)) return undefined;
  if (typeof pidSpace !== 'string') return undefined;
  if (typeof claimedAt !== 'number' || !Number.isFinite(claimedAt)) return undefined;
  if (procStart !== undefined && typeof procStart !== 'string') return undefined;
  return procStart === undefined
    ? { pid, pidSpace, claimedAt }
    : { pid, pidSpace, claimedAt, procStart };
}

function parseMember(
  value: unknown,
  leadAgentId: string | undefined,
): ClaudeTeamMember | undefined {
  // Claude Code keeps only members with a string agentId and name; so does Teamkit.
  if (!isPlainObject(value)) return undefined;
  const { agentId, name } = value;
  if (typeof agentId !== 'string' || typeof name !== 'string') return undefined;
  const extra = unknownFields(value, MEMBER_FIELDS);
  return {
    name,
    agentId,
    isLead:
      leadAgentId !== undefined
        ? agentId === leadAgentId
        : value.agentType === 'team-lead' || name === 'team-lead',
    ...definedFields({
      agentType: optionalString(value.agentType),
      model: optionalString(value.model),
      color: optionalString(value.color),
      backendType: optionalString(value.backendType),
      tmuxPaneId: optionalString(value.tmuxPaneId),
      cwd: optionalString(value.cwd),
      joinedAt: optionalNumber(value.joinedAt),
      isActive: optionalBoolean(value.isActive),
      planModeRequired: optionalBoolean(value.planModeRequired),
      prompt: optionalString(value.prompt),
      extra,
    }),
  };
}

/**
 * Reads a parsed `config.json` leniently, as Claude Code does: members without a string
 * `agentId` and `name` are left out, a malformed `leadProcess` is ignored, and fields
 * Teamkit does not know are kept in `extra`. Only a value that is not an object fails.
 */
export function parseTeamConfig(
  value: unknown,
  folderName: string,
): { ok: true; config: ClaudeTeamConfig } | { ok: false; reason: string } {
  if (!isPlainObject(value)) return { ok: false, reason: 'config.json is not a JSON object' };
  const leadAgentId = optionalString(value.leadAgentId);
  const members = Array.isArray(value.members)
    ? value.members
        .map((member) => parseMember(member, leadAgentId))
        .filter((member): member is ClaudeTeamMember => member !== undefined)
    : [];
  return {
    ok: true,
    config: {
      name: optionalString(value.name) ?? optionalString(value.teamName) ?? folderName,
      members,
      ...definedFields({
        description: optionalString(value.description),
        createdAt: optionalNumber(value.createdAt),
        leadAgentId,
        leadSessionId: optionalString(value.leadSessionId),
        leadProcess: parseLeadProcess(value.leadProcess),
        extra: unknownFields(value, TOP_LEVEL),
      }),
    },
  };
}
