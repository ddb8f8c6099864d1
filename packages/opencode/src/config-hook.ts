import {
  renderTeamProtocol,
  type TeamLibrary,
  type TeamMemberSpec,
  type TeamSpec,
} from '@teamkit/team-core';
import { OPENCODE_TOOL_VOCABULARY } from './tools/tool-vocabulary.js';

/** A permission action in OpenCode's agent config. */
type PermissionAction = 'allow' | 'ask' | 'deny';

/** The agent entry Teamkit writes into OpenCode's `agent` config. */
export interface ProjectedAgent {
  description: string;
  mode: 'primary' | 'subagent' | 'all';
  prompt: string;
  model?: string;
  color?: string;
  tools?: Record<string, boolean>;
  permission: Record<string, PermissionAction | Record<string, PermissionAction>>;
}

/** The command entry Teamkit writes into OpenCode's `command` config. */
export interface ProjectedCommand {
  template: string;
  description: string;
  agent: string;
}

/** The part of OpenCode's config the projection reads and writes. */
export interface ProjectableConfig {
  agent?: Record<string, unknown>;
  command?: Record<string, unknown>;
  default_agent?: string;
}

/** Options of {@link projectTeamsIntoConfig}. */
export interface ProjectionOptions {
  /** Set `default_agent` to the default lead when the user has not chosen one. */
  defaultAgent: boolean;
}

/** Something the projection wants logged; it never throws. */
export interface ProjectionNote {
  level: 'info' | 'warn';
  message: string;
}

/** What {@link projectTeamsIntoConfig} added, and what it left alone. */
export interface ProjectionReport {
  agents: string[];
  commands: string[];
  defaultAgent?: string;
  /** The agent the `/team-*` commands run with. */
  leadAgent?: string;
  notes: ProjectionNote[];
}

/**
 * Reads of `.env` files are denied to team roles; templates such as `.env.example` stay
 * readable. OpenCode evaluates the patterns in order and the last match wins.
 */
export const ENV_READ_RULES: Readonly<Record<string, PermissionAction>> = {
  '*': 'allow',
  '*.env': 'deny',
  '*.env.*': 'deny',
  '*.env.example': 'allow',
};

/** The OpenCode agent name of a team member. */
export function agentNameOf(teamId: string, member: string): string {
  return `${teamId}-${member}`;
}

const ACTIONS = new Set<string>(['allow', 'ask', 'deny']);

function permissionOf(spec: TeamSpec, member: TeamMemberSpec): ProjectedAgent['permission'] {
  const rules =
    spec.policy.toolPermissions[member.name] ?? spec.policy.toolPermissions[member.role] ?? {};
  const permission: ProjectedAgent['permission'] = {};
  for (const [tool, action] of Object.entries(rules)) {
    if (!ACTIONS.has(action) || tool === 'read') continue;
    permission[tool] = action;
  }
  const read = rules.read;
  permission.read =
    read === 'deny' ? 'deny' : { ...ENV_READ_RULES, '*': read === 'ask' ? 'ask' : 'allow' };
  return permission;
}

function promptOf(spec: TeamSpec, member: TeamMemberSpec): string {
  const protocol = renderTeamProtocol({
    runId: '(assigned when the team starts)',
    teamName: spec.id,
    member: member.name,
    role: member.role,
    lead: spec.lead,
    members: spec.members.map(({ name, role }) => ({ name, role })),
    vocabulary: OPENCODE_TOOL_VOCABULARY,
  });
  const start =
    member.name === spec.lead
      ? `\n\nStart the team with the \`team_create\` tool (team "${spec.id}") before you send mail or create tasks; it starts every member as a child session of yours.`
      : '';
  return `${member.prompt.trim()}\n\n${protocol}${start}\n`;
}

function agentOf(spec: TeamSpec, member: TeamMemberSpec): ProjectedAgent {
  const isLead = member.name === spec.lead;
  const agent: ProjectedAgent = {
    description:
      member.description ??
      (isLead
        ? `Lead of the Teamkit team "${spec.name}"`
        : `${member.role} of the Teamkit team "${spec.name}"`),
    mode: isLead ? 'primary' : 'subagent',
    prompt: promptOf(spec, member),
    permission: permissionOf(spec, member),
  };
  // OpenCode wants `provider/model`; a bare model name would make the agent unusable.
  if (member.model?.includes('/')) agent.model = member.model;
  if (member.color !== undefined && /^#[0-9a-f]{6}$/i.test(member.color))
    agent.color = member.color;
  if (member.tools !== undefined) agent.tools = { ...member.tools };
  return agent;
}

function commandsFor(leadAgent: string, teamId: string): Record<string, ProjectedCommand> {
  return {
    'team-run': {
      description: `Run the "${teamId}" team on a task`,
      agent: leadAgent,
      template: `Start the team with team_create unless it is already running, state the goal and acceptance criteria, split the work into tasks with team_task_create and route them to the members with team_send_message. The task:\n\n$ARGUMENTS`,
    },
    'team-status': {
      description: 'Show the running team: members, tasks and unread mail',
      agent: leadAgent,
      template:
        'Call team_status and summarise the run: each member and what it is doing, tasks by status, unread mail and anything blocked.',
    },
    'team-board': {
      description: "Show the team's task board",
      agent: leadAgent,
      template:
        'Call team_task_list and show the task board grouped by status, with owners and dependencies.',
    },
    'team-plan': {
      description: 'Plan a task with the team before any work starts',
      agent: leadAgent,
      template: `Plan this with the team without starting the work: the goal, acceptance criteria the user can check, and tasks with dependencies and owners. Create the tasks with team_task_create (start the team with team_create first if needed), then show the plan and wait for approval. The task:\n\n$ARGUMENTS`,
    },
    'team-review': {
      description: "Ask the team's reviewer to review changes",
      agent: leadAgent,
      template: `Have the team review $ARGUMENTS (the current uncommitted changes when nothing is named): create a review task with team_task_create, send it to the reviewer with team_send_message, and report the findings as they arrive.`,
    },
  };
}

/**
 * Projects the effective team library into OpenCode's config: each team's lead as a
 * primary agent and its members as subagents named `<team>-<member>`, the `/team-*`
 * commands routed to the default lead, and `default_agent`. Entries the user already
 * has always win; the function only adds, and reports problems instead of throwing.
 */
export function projectTeamsIntoConfig(
  config: ProjectableConfig,
  library: TeamLibrary,
  options: ProjectionOptions,
): ProjectionReport {
  const report: ProjectionReport = { agents: [], commands: [], notes: [] };
  for (const shadow of library.shadows)
    report.notes.push({ level: 'info', message: shadow.message });

  const agents: Record<string, unknown> = config.agent ?? {};
  for (const team of library.teams) {
    if (!team.enabled) continue;
    for (const member of team.spec.members) {
      const name = agentNameOf(team.id, member.name);
      if (agents[name] !== undefined) {
        report.notes.push({
          level: 'info',
          message: `agent "${name}" is defined by the user config; Teamkit leaves it as it is`,
        });
        continue;
      }
      agents[name] = agentOf(team.spec, member);
      report.agents.push(name);
    }
  }
  if (report.agents.length > 0) config.agent = agents;

  const lead = library.defaultLead;
  if (lead === undefined) return report;
  const leadAgent = agentNameOf(lead.teamId, lead.member);
  report.leadAgent = leadAgent;
  const commands: Record<string, unknown> = config.command ?? {};
  for (const [name, command] of Object.entries(commandsFor(leadAgent, lead.teamId))) {
    if (commands[name] !== undefined) {
      report.notes.push({
        level: 'info',
        message: `command "/${name}" is defined by the user config; Teamkit leaves it as it is`,
      });
      continue;
    }
    commands[name] = command;
    report.commands.push(name);
  }
  if (report.commands.length > 0) config.command = commands;

  if (
    options.defaultAgent &&
    config.default_agent === undefined &&
    report.agents.includes(leadAgent)
  ) {
    config.default_agent = leadAgent;
    report.defaultAgent = leadAgent;
  }
  return report;
}
