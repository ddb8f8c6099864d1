export { findOnPath } from '@teamkit/agent-clis';
export type {
  AgentMode,
  AgentPreset,
  AgentPresetName,
  PreparedAgent,
  PresetFile,
  PresetMemberInput,
  PresetTurn,
} from './agent-preset.js';
export { AGENT_PRESET_NAMES, isAgentPresetName } from './agent-preset.js';
export {
  AGENT_PRESETS,
  getAgentPreset,
  locatePresetProgram,
  presetsOnPath,
} from './agent-presets.js';
export { CLAUDE_ALLOWED_TOOLS } from './claude-preset.js';
export { GEMINI_ALLOWED_TOOLS } from './gemini-preset.js';
