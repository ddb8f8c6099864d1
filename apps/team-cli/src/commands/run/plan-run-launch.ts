import { TeamkitError, type TeamSpec } from '@teamkit/team-core';
import {
  AGENT_PRESET_NAMES,
  getAgentPreset,
  locatePresetProgram,
  presetsOnPath,
} from '../../agent-presets/index.js';
import { parseAgentCommand } from '../../process-host/agent-command.js';
import type { MemberLaunch, RunLaunch } from '../../process-host/run-launch.js';

/** What `team run start` was told about agents. */
export interface AgentChoice {
  /** `--agent`: one preset for every member (wins over the team's own choice). */
  agent?: string;
  /** `--agent-cmd`: a template for every member. */
  agentCommand?: string;
  /** `--agent-cmd-mode`: whether that template runs one turn and exits, or the whole run. */
  agentCommandMode?: 'one-shot' | 'long-lived';
  /** `--model`: the model of every member (wins over the team's). */
  model?: string;
}

/** The {@link AgentChoice} in the options of `team run start` or `team run join`. */
export function agentChoiceOf(options: Record<string, unknown>): AgentChoice {
  const mode = options.agentCmdMode;
  return {
    ...(typeof options.agent === 'string' ? { agent: options.agent } : {}),
    ...(typeof options.agentCmd === 'string' ? { agentCommand: options.agentCmd } : {}),
    ...(mode === 'one-shot' || mode === 'long-lived' ? { agentCommandMode: mode } : {}),
    ...(typeof options.model === 'string' ? { model: options.model } : {}),
  };
}

function presetLaunch(
  name: string,
  model: string | undefined,
  env: NodeJS.ProcessEnv,
): MemberLaunch {
  const preset = getAgentPreset(name);
  const program = preset.install === undefined ? preset.program : locatePresetProgram(preset, env);
  if (program === undefined) {
    const install = preset.install;
    throw new TeamkitError(
      'AGENT_NOT_FOUND',
      `The ${preset.title} command "${preset.program}" is not on PATH${install === undefined ? '' : `: install it (npm install -g ${install.packageName}@${install.checkedVersion}) or set TEAMKIT_${preset.name.toUpperCase()}_BIN to its path`}.`,
      { details: { agent: preset.name, program: preset.program } },
    );
  }
  return {
    kind: 'preset',
    preset: preset.name,
    program,
    ...(model === undefined ? {} : { model }),
  };
}

/**
 * Decides how each member of `spec` starts: `--agent-cmd` (a template, one-shot or
 * long-lived), else `--agent` (a preset), else the member's own `agent:` from the team
 * package. A member left without an agent is refused with `AGENT_NOT_CONFIGURED`, naming
 * the presets whose programs are on PATH; a preset whose program is missing is
 * `AGENT_NOT_FOUND`. Nothing is written.
 */
export function planRunLaunch(
  spec: TeamSpec,
  choice: AgentChoice,
  env: NodeJS.ProcessEnv,
): RunLaunch {
  if (choice.agent !== undefined && choice.agentCommand !== undefined) {
    throw new TeamkitError('INVALID_INPUT', 'Give --agent or --agent-cmd, not both.', {
      details: { agent: choice.agent },
    });
  }
  if (choice.agentCommandMode !== undefined && choice.agentCommand === undefined) {
    throw new TeamkitError('INVALID_INPUT', '--agent-cmd-mode goes with --agent-cmd.', {
      details: { mode: choice.agentCommandMode },
    });
  }
  if (choice.agentCommand !== undefined) parseAgentCommand(choice.agentCommand);
  const members: Record<string, MemberLaunch> = {};
  const missing: string[] = [];
  for (const member of spec.members) {
    const model = choice.model ?? member.model;
    if (choice.agentCommand !== undefined) {
      members[member.name] = {
        kind: 'command',
        template: choice.agentCommand,
        mode: choice.agentCommandMode === 'one-shot' ? 'turns' : 'long-lived',
        ...(model === undefined ? {} : { model }),
      };
      continue;
    }
    const agent = choice.agent ?? member.agent;
    if (agent === undefined) {
      missing.push(member.name);
      continue;
    }
    members[member.name] = presetLaunch(agent, model, env);
  }
  if (missing.length > 0) {
    const found = presetsOnPath(env).map((preset) => preset.name);
    throw new TeamkitError(
      'AGENT_NOT_CONFIGURED',
      `No agent for ${missing.join(', ')} of team ${spec.id}: start it with --agent <${AGENT_PRESET_NAMES.join('|')}> or --agent-cmd <template>, or set agent: in the team package. ${found.length === 0 ? 'No agent CLI was found on PATH.' : `Found on PATH: ${found.join(', ')}.`}`,
      { details: { team: spec.id, members: missing, onPath: found } },
    );
  }
  return { version: 1, members };
}
