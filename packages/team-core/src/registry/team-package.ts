import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { isTeamkitError, TeamkitError } from '../errors/index.js';
import { describeIssues } from '../schema/describe-issues.js';
import {
  AgentPresetNameSchema,
  MemberNameSchema,
  type TeamPolicy,
  TeamPolicySchema,
  type TeamSpecInput,
} from '../schema/index.js';
import { assertSafeSegment } from '../storage/index.js';
import { parseAgentFile } from './agent-file.js';
import { parseJsonc } from './parse-jsonc.js';
import { parseYamlSafely } from './parse-yaml-safely.js';
import { readContainedTextFile } from './read-text-file.js';
import type { RegistryWarning } from './registry-warning.js';

/** The manifest file of a team package. */
export const TEAM_MANIFEST_FILE = 'team.yaml';
/** The optional policy file of a team package. */
export const TEAM_POLICY_FILE = 'policy.yaml';
/** The optional human-readable notes of a team package. */
export const TEAM_DOC_FILE = 'TEAM.md';
/** The older flat JSON team file, read by the same loader. */
export const FLAT_TEAM_FILE = 'config.json';
/** The suffix of agent files (`<member>.agent.md`). */
export const AGENT_FILE_SUFFIX = '.agent.md';

const ManifestMemberSchema = z.strictObject({
  name: MemberNameSchema,
  role: z.string().min(1).max(64).optional(),
  description: z.string().max(2_000).optional(),
  agent: z.string().min(1).max(255).optional(),
  prompt: z.string().min(1).max(100_000).optional(),
  model: z.string().min(1).max(200).optional(),
  color: z.string().min(1).max(32).optional(),
  colour: z.string().min(1).max(32).optional(),
  worktree: z.boolean().optional(),
  tmux: z.boolean().optional(),
  mode: z.enum(['primary', 'subagent', 'all']).optional(),
  tools: z.record(z.string().min(1), z.boolean()).optional(),
});

/** The shape of `team.yaml`. Unknown keys are refused so a typo never passes silently. */
export const TeamManifestSchema = z.strictObject({
  version: z.literal(1).optional(),
  id: z.string(),
  name: z.string().min(1).max(200).optional(),
  description: z.string().max(2_000).optional(),
  lead: z.string().optional(),
  /** The agent preset of every member that names none (`agent:` of a member, its front matter). */
  agent: AgentPresetNameSchema.optional(),
  /** The model of every member that names none. */
  model: z.string().min(1).max(200).optional(),
  members: z.array(ManifestMemberSchema).min(1).max(64),
});

/**
 * A member's `agent:` in `team.yaml` is its agent file when it ends in `.md` (as before
 * presets existed), else the name of the agent preset that runs it.
 */
function splitManifestAgent(agent: string | undefined): { file?: string; preset?: string } {
  if (agent === undefined) return {};
  return agent.endsWith('.md') ? { file: agent } : { preset: agent };
}

const FlatMemberSchema = z.looseObject({
  name: z.string(),
  prompt: z.string().optional(),
  kind: z.string().optional(),
  category: z.string().optional(),
  subagent_type: z.string().optional(),
  role: z.string().optional(),
  description: z.string().optional(),
  model: z.string().optional(),
  color: z.string().optional(),
});

/** The older flat `config.json` team shape (name, description, leadAgentId, members). */
export const FlatTeamSchema = z.looseObject({
  name: z.string(),
  description: z.string().optional(),
  leadAgentId: z.string().optional(),
  members: z.array(FlatMemberSchema).min(1).max(64),
});

/** A member as parsed, before validation; `prompt` is missing when no source gave one. */
export type ParsedMember = Omit<TeamSpecInput['members'][number], 'prompt'> & {
  prompt?: string;
};

/** A team folder after parsing and before validation. */
export interface ParsedTeam {
  format: 'package' | 'flat';
  folder: string;
  /** The manifest (`team.yaml` or `config.json`) the team was read from. */
  manifestFile: string;
  id: string;
  name: string;
  description: string;
  lead: string | undefined;
  members: ParsedMember[];
  policy: TeamPolicy;
  teamDoc?: string;
  /** The file a member's missing prompt was expected in, by member name. */
  expectedAgentFiles: Record<string, string>;
  warnings: RegistryWarning[];
}

// Three issues are enough to point at the problem in a hand-written file.
const describeFileIssues = (error: z.ZodError) => describeIssues(error, 3).join('; ');

function invalid(file: string, reason: string): TeamkitError {
  return new TeamkitError('INVALID_TEAM', `${file}: ${reason}`, { details: { path: file } });
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

async function readPolicy(folder: string): Promise<{ policy: TeamPolicy; file?: string }> {
  const found = await readContainedTextFile(folder, TEAM_POLICY_FILE, 'INVALID_TEAM');
  if (found === undefined) return { policy: TeamPolicySchema.parse({}) };
  const raw = parseYamlSafely(found.text, found.path) ?? {};
  if (!isMapping(raw)) throw invalid(found.path, 'the policy must be a mapping.');
  const parsed = TeamPolicySchema.safeParse(raw);
  if (!parsed.success) throw invalid(found.path, describeFileIssues(parsed.error));
  return { policy: parsed.data, file: found.path };
}

async function readTeamDoc(folder: string): Promise<string | undefined> {
  return (await readContainedTextFile(folder, TEAM_DOC_FILE, 'INVALID_TEAM'))?.text;
}

async function parsePackage(folder: string, manifest: { path: string; text: string }) {
  const warnings: RegistryWarning[] = [];
  const raw = parseYamlSafely(manifest.text, manifest.path);
  if (!isMapping(raw)) throw invalid(manifest.path, 'the manifest must be a mapping.');
  const parsed = TeamManifestSchema.safeParse(raw);
  if (!parsed.success) throw invalid(manifest.path, describeFileIssues(parsed.error));
  const { policy } = await readPolicy(folder);
  const expectedAgentFiles: Record<string, string> = {};
  const usedAgentFiles = new Set<string>();
  const members: ParsedMember[] = [];
  for (const entry of parsed.data.members) {
    const named = splitManifestAgent(entry.agent);
    if (named.preset !== undefined && !AgentPresetNameSchema.safeParse(named.preset).success) {
      throw invalid(
        manifest.path,
        `member "${entry.name}": agent "${named.preset}" is neither an agent file (*.md) nor an agent preset name (claude, codex, opencode, gemini, teamkit-agent).`,
      );
    }
    const fileName = assertSafeSegment(
      named.file ?? `${entry.name}${AGENT_FILE_SUFFIX}`,
      `agent file of member "${entry.name}"`,
    );
    usedAgentFiles.add(fileName);
    const agent = await readContainedTextFile(folder, fileName, 'INVALID_TEAM');
    if (agent === undefined && named.file !== undefined) {
      throw invalid(
        manifest.path,
        `member "${entry.name}" names agent file "${fileName}", which does not exist.`,
      );
    }
    if (entry.color !== undefined && entry.colour !== undefined && entry.color !== entry.colour) {
      throw invalid(manifest.path, `member "${entry.name}" sets both color and colour.`);
    }
    const parsedAgent = agent === undefined ? undefined : parseAgentFile(agent.text, agent.path);
    if (parsedAgent !== undefined && parsedAgent.ignoredKeys.length > 0) {
      warnings.push({
        topic: 'team',
        code: 'INVALID_TEAM',
        file: agent?.path,
        message: `${agent?.path}: front matter keys ${parsedAgent.ignoredKeys.map((k) => `"${k}"`).join(', ')} are not used by Teamkit and were ignored.`,
      });
    }
    const front = parsedAgent?.frontMatter ?? {};
    const prompt =
      parsedAgent !== undefined && parsedAgent.prompt !== '' ? parsedAgent.prompt : entry.prompt;
    expectedAgentFiles[entry.name] = path.join(folder, fileName);
    const member: ParsedMember = {
      name: entry.name,
      role: entry.role ?? entry.name,
      description: front.description ?? entry.description,
      prompt,
      model: front.model ?? entry.model ?? parsed.data.model,
      agent: front.agent ?? named.preset ?? parsed.data.agent,
      color: front.color ?? entry.color ?? entry.colour,
      worktree: entry.worktree ?? false,
      tmux: entry.tmux ?? true,
      mode: front.mode ?? entry.mode,
      tools: front.tools ?? entry.tools,
      agentFile: agent === undefined ? undefined : fileName,
    };
    members.push(
      Object.fromEntries(
        Object.entries(member).filter(([, value]) => value !== undefined),
      ) as ParsedMember,
    );
  }
  for (const name of await readdir(folder)) {
    if (name.endsWith(AGENT_FILE_SUFFIX) && !usedAgentFiles.has(name)) {
      warnings.push({
        topic: 'team',
        code: 'INVALID_TEAM',
        file: path.join(folder, name),
        message: `${path.join(folder, name)} belongs to no member of ${manifest.path} and was ignored.`,
      });
    }
  }
  const teamDoc = await readTeamDoc(folder);
  const lead =
    parsed.data.lead ??
    (parsed.data.members.length === 1 ? parsed.data.members[0]?.name : undefined);
  if (lead === undefined) {
    throw invalid(manifest.path, '"lead" is required when the team has more than one member.');
  }
  return {
    format: 'package' as const,
    folder,
    manifestFile: manifest.path,
    id: parsed.data.id,
    name: parsed.data.name ?? parsed.data.id,
    description: parsed.data.description ?? '',
    lead,
    members,
    policy,
    ...(teamDoc === undefined ? {} : { teamDoc }),
    expectedAgentFiles,
    warnings,
  };
}

async function parseFlat(
  folder: string,
  file: { path: string; text: string },
): Promise<ParsedTeam> {
  let raw: unknown;
  try {
    raw = parseJsonc(file.text, file.path);
  } catch (error) {
    if (isTeamkitError(error)) throw invalid(file.path, error.message);
    throw error;
  }
  if (!isMapping(raw)) throw invalid(file.path, 'the team must be an object.');
  const parsed = FlatTeamSchema.safeParse(raw);
  if (!parsed.success) throw invalid(file.path, describeFileIssues(parsed.error));
  const { policy } = await readPolicy(folder);
  const team = parsed.data;
  const lead = team.leadAgentId ?? (team.members.length === 1 ? team.members[0]?.name : undefined);
  if (lead === undefined) {
    throw invalid(file.path, '"leadAgentId" is required when the team has more than one member.');
  }
  const teamDoc = await readTeamDoc(folder);
  const members = team.members.map((member) => {
    const prompt = member.prompt?.trim();
    const result: ParsedMember = {
      name: member.name,
      role: member.role ?? member.category ?? member.subagent_type ?? member.kind ?? 'member',
      worktree: false,
      tmux: true,
    };
    if (prompt !== undefined && prompt !== '') result.prompt = prompt;
    if (member.description !== undefined) result.description = member.description;
    if (member.model !== undefined) result.model = member.model;
    if (member.color !== undefined) result.color = member.color;
    return result;
  });
  return {
    format: 'flat',
    folder,
    manifestFile: file.path,
    id: team.name,
    name: team.name,
    description: team.description ?? '',
    lead,
    members,
    policy,
    ...(teamDoc === undefined ? {} : { teamDoc }),
    expectedAgentFiles: {},
    warnings: [],
  };
}

/**
 * Reads a team folder: `team.yaml` (+ `policy.yaml`, `<member>.agent.md`, `TEAM.md`), or
 * else a flat `config.json`. Every file is read through a symlink-aware containment check
 * (`PATH_TRAVERSAL` when one escapes the folder), with size caps and safe YAML limits.
 * Throws `INVALID_TEAM` when the folder holds no manifest or a file is malformed; writes nothing.
 */
export async function parseTeamFolder(folder: string): Promise<ParsedTeam> {
  const team = await parseTeamFiles(folder);
  const roles = new Set(team.members.map((member) => member.role));
  for (const role of Object.keys(team.policy.toolPermissions)) {
    if (!roles.has(role)) {
      team.warnings.push({
        topic: 'team',
        code: 'INVALID_TEAM',
        file: path.join(folder, TEAM_POLICY_FILE),
        message: `${path.join(folder, TEAM_POLICY_FILE)}: toolPermissions names role "${role}", which no member of "${team.id}" has (roles: ${[...roles].join(', ')}).`,
      });
    }
  }
  return team;
}

async function parseTeamFiles(folder: string): Promise<ParsedTeam> {
  const manifest = await readContainedTextFile(folder, TEAM_MANIFEST_FILE, 'INVALID_TEAM');
  const flat = await readContainedTextFile(folder, FLAT_TEAM_FILE, 'INVALID_TEAM');
  if (manifest !== undefined) {
    const team = await parsePackage(folder, manifest);
    if (flat !== undefined) {
      team.warnings.push({
        topic: 'team',
        code: 'INVALID_TEAM',
        file: flat.path,
        message: `${flat.path} was ignored: ${manifest.path} takes precedence.`,
      });
    }
    return team;
  }
  if (flat !== undefined) return parseFlat(folder, flat);
  throw new TeamkitError(
    'INVALID_TEAM',
    `${folder}: missing manifest (expected ${TEAM_MANIFEST_FILE} or a flat ${FLAT_TEAM_FILE}).`,
    { details: { path: folder } },
  );
}
