export type { AgentCli, AgentCliMcpServer, AgentCliName, AgentCliTurn } from './agent-cli.js';
export { AGENT_CLI_NAMES, isAgentCliName } from './agent-cli.js';
export { AGENT_CLIS } from './agent-clis.js';
export type { ClaudeCodeTurnOptions } from './claude-code.js';
export {
  CLAUDE_CODE,
  CLAUDE_CODE_QUIET_ENV,
  CLAUDE_CODE_VARIABLES,
  claudeCodeMcpConfig,
  claudeCodeMcpTools,
  claudeCodeTurnArgs,
} from './claude-code.js';
export type { CodexTurnOptions } from './codex.js';
export { CODEX, CODEX_VARIABLES, codexSettings, codexTurnArgs } from './codex.js';
export { findOnPath, packageBinPath, programOverrideVariable } from './find-program.js';
export type { GeminiCliTurnOptions } from './gemini-cli.js';
export {
  GEMINI_CLI,
  GEMINI_CLI_VARIABLES,
  geminiCliMcpServers,
  geminiCliSettingsFile,
  geminiCliTurnArgs,
} from './gemini-cli.js';
export { parseJsonLines, parseJsonObject, sessionIdField } from './json-output.js';
export type { OpencodeTurnOptions } from './opencode.js';
export { OPENCODE, OPENCODE_VARIABLES, opencodeConfig, opencodeTurnArgs } from './opencode.js';
