import { findOnPath, programOverrideVariable } from '@teamkit/agent-clis';
import { TeamkitError } from '@teamkit/team-core';
import {
  AGENT_PRESET_NAMES,
  type AgentPreset,
  type AgentPresetName,
  isAgentPresetName,
} from './agent-preset.js';
import { claudePreset } from './claude-preset.js';
import { codexPreset } from './codex-preset.js';
import { geminiPreset } from './gemini-preset.js';
import { opencodePreset } from './opencode-preset.js';
import { teamkitAgentPreset } from './teamkit-agent-preset.js';

/** Every preset, by name. */
export const AGENT_PRESETS: Readonly<Record<AgentPresetName, AgentPreset>> = {
  claude: claudePreset,
  codex: codexPreset,
  opencode: opencodePreset,
  gemini: geminiPreset,
  'teamkit-agent': teamkitAgentPreset,
};

/** The preset called `name`; an unknown name is `INVALID_INPUT` listing the presets. */
export function getAgentPreset(name: string): AgentPreset {
  if (!isAgentPresetName(name)) {
    throw new TeamkitError(
      'INVALID_INPUT',
      `Unknown agent preset "${name}": use one of ${AGENT_PRESET_NAMES.join(', ')}, or --agent-cmd for another command.`,
      { details: { agent: name, presets: [...AGENT_PRESET_NAMES] } },
    );
  }
  return AGENT_PRESETS[name];
}

/**
 * The program a preset runs: `TEAMKIT_<NAME>_BIN` when set (e.g. `TEAMKIT_CLAUDE_BIN`,
 * a path), else the preset's command on `PATH`. `undefined` when neither is there.
 */
export function locatePresetProgram(
  preset: AgentPreset,
  env: NodeJS.ProcessEnv,
): string | undefined {
  const override = env[programOverrideVariable(preset.name)];
  if (override !== undefined && override !== '') return findOnPath(override, env);
  return findOnPath(preset.program, env);
}

/** The real agent CLIs (not the scripted agent) whose programs this environment finds. */
export function presetsOnPath(env: NodeJS.ProcessEnv): AgentPreset[] {
  return Object.values(AGENT_PRESETS).filter(
    (preset) => preset.install !== undefined && locatePresetProgram(preset, env) !== undefined,
  );
}
