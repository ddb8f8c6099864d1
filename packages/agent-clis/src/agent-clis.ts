import type { AgentCli, AgentCliName } from './agent-cli.js';
import { CLAUDE_CODE } from './claude-code.js';
import { CODEX } from './codex.js';
import { GEMINI_CLI } from './gemini-cli.js';
import { OPENCODE } from './opencode.js';

/** Every agent CLI's program, package and session ids, by name. */
export const AGENT_CLIS: Readonly<Record<AgentCliName, AgentCli>> = {
  claude: CLAUDE_CODE,
  codex: CODEX,
  opencode: OPENCODE,
  gemini: GEMINI_CLI,
};
