import type { SpawnMemberInput } from '@teamkit/team-core';
import { type AgentMode, getAgentPreset } from '../agent-presets/index.js';
import {
  type AgentCommandValues,
  expandAgentCommand,
  parseAgentCommand,
  resolveScriptedAgent,
} from './agent-command.js';
import type { MemberLaunch } from './run-launch.js';

/** The hidden `team` subcommand a turn-based member's process runs (the turn runner). */
export const TURN_RUNNER_COMMAND = 'member-turns';

/** What the host starts for one member. */
export interface MemberLaunchPlan {
  mode: AgentMode;
  /** The member's process: the agent itself (long-lived) or Teamkit's turn runner. */
  argv: string[];
}

/** The values a template's placeholders take for one member. */
export function agentCommandValues(
  home: string,
  input: SpawnMemberInput,
  promptFile: string,
  model: string | undefined,
): AgentCommandValues {
  return {
    member: input.member.name,
    role: input.member.role,
    run: input.runId,
    team: input.teamName,
    'prompt-file': promptFile,
    home,
    cwd: input.cwd,
    model: model ?? input.member.model ?? '',
    prompt: '',
  };
}

/** How a member is started: its process's argv, from its launch record. */
export function planMemberLaunch(
  launch: MemberLaunch,
  values: AgentCommandValues,
  teamCommand: { node: string; bin: string },
): MemberLaunchPlan {
  const mode: AgentMode =
    launch.kind === 'preset' ? getAgentPreset(launch.preset).mode : launch.mode;
  if (mode === 'turns') {
    return { mode, argv: [teamCommand.node, teamCommand.bin, TURN_RUNNER_COMMAND] };
  }
  const words = launch.kind === 'preset' ? [launch.program] : parseAgentCommand(launch.template);
  return { mode, argv: resolveScriptedAgent(expandAgentCommand(words, values)) };
}
