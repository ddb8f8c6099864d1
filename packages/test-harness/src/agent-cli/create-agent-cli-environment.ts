import { TeamkitError } from '@teamkit/team-core';
import type { AgentCliEnvironment, AgentCliEnvironmentOptions } from './agent-cli-environment.js';
import { type AgentCliName, isAgentCliName } from './agent-cli-name.js';
import { createClaudeCodeEnvironment } from './claude-code-environment.js';
import { createCodexEnvironment } from './codex-environment.js';
import { createGeminiCliEnvironment } from './gemini-cli-environment.js';
import { createOpencodeEnvironment } from './opencode-environment.js';

const BUILDERS: Record<AgentCliName, (options: AgentCliEnvironmentOptions) => AgentCliEnvironment> =
  {
    claude: createClaudeCodeEnvironment,
    codex: createCodexEnvironment,
    opencode: createOpencodeEnvironment,
    gemini: createGeminiCliEnvironment,
  };

/**
 * Builds an isolated environment for one agent CLI pointed at a mock model server: a
 * private home and config folder under `options.root` (seeded with what the CLI needs to
 * run offline), the mock's URL and a key, the model, MCP servers, retry and permission
 * settings. Returns the environment variables to spawn the CLI with and the argument
 * arrays of a first and a resumed turn. Writes only under `options.root`.
 */
export function createAgentCliEnvironment(
  cli: AgentCliName,
  options: AgentCliEnvironmentOptions,
): AgentCliEnvironment {
  if (!isAgentCliName(cli)) {
    throw new TeamkitError(
      'INVALID_INPUT',
      `Unknown agent CLI "${String(cli)}": use claude, codex, opencode or gemini.`,
      { details: { cli } },
    );
  }
  return BUILDERS[cli](options);
}
