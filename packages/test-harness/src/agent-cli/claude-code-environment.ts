import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CLAUDE_CODE,
  CLAUDE_CODE_QUIET_ENV,
  CLAUDE_CODE_VARIABLES,
  claudeCodeMcpConfig,
  claudeCodeMcpTools,
  claudeCodeTurnArgs,
} from '@teamkit/agent-clis';
import {
  type AgentCliEnvironment,
  type AgentCliEnvironmentOptions,
  baseEnvironment,
} from './agent-cli-environment.js';

/**
 * Claude Code (`claude -p`) against the Anthropic Messages API of a mock model server, with
 * the turn flags the `claude` preset uses (`claudeCodeTurnArgs` of `@teamkit/agent-clis`):
 * `--permission-mode acceptEdits` lets file edits and plain shell commands inside the
 * working folder run without prompts; writes outside it, and shell commands Claude Code
 * does not judge safe (`git commit`, anything with `${...}`), are refused and reported in
 * `permission_denials`. MCP servers come from a per-process `--mcp-config` file, added to
 * the configured ones as for a member (of which the private `CLAUDE_CONFIG_DIR` has none),
 * and their tools are allowed with `--allowedTools mcp__<name>`.
 */
export function createClaudeCodeEnvironment(
  options: AgentCliEnvironmentOptions,
): AgentCliEnvironment {
  const home = join(options.root, 'home');
  const configDir = join(options.root, 'claude-config');
  const tmp = join(options.root, 'tmp');
  for (const dir of [home, configDir, tmp]) mkdirSync(dir, { recursive: true });
  const files: string[] = [];

  const servers = options.mcpServers ?? {};
  const names = Object.keys(servers);
  let mcpConfigFile: string | undefined;
  if (names.length > 0) {
    mcpConfigFile = join(options.root, 'claude-mcp.json');
    writeFileSync(mcpConfigFile, claudeCodeMcpConfig(servers));
    files.push(mcpConfigFile);
  }
  const turnOptions = {
    ...(options.model === undefined ? {} : { model: options.model }),
    ...(mcpConfigFile === undefined ? {} : { mcpConfigFile }),
    allowedTools: names.map(claudeCodeMcpTools),
  };

  return {
    cli: 'claude',
    env: {
      ...baseEnvironment(home, tmp),
      [CLAUDE_CODE_VARIABLES.configFolder]: configDir,
      [CLAUDE_CODE_VARIABLES.tmpFolder]: tmp,
      [CLAUDE_CODE_VARIABLES.baseUrl]: options.server.origin,
      [CLAUDE_CODE_VARIABLES.apiKey]: 'mock-key',
      [CLAUDE_CODE_VARIABLES.maxRetries]: String(options.retries ?? 0),
      ...CLAUDE_CODE_QUIET_ENV,
      ...options.env,
    },
    model: options.model,
    firstTurnArgs: (prompt) => claudeCodeTurnArgs({ prompt }, turnOptions),
    resumeTurnArgs: (sessionId, prompt) => claudeCodeTurnArgs({ prompt, sessionId }, turnOptions),
    sessionIdFrom: CLAUDE_CODE.sessionIdFrom,
    files,
  };
}
