import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type AgentCliEnvironment,
  type AgentCliEnvironmentOptions,
  baseEnvironment,
  parseJsonObject,
} from './agent-cli-environment.js';

/**
 * Claude Code (`claude -p`) against the Anthropic Messages API of a mock model server.
 * Edits go through `--permission-mode acceptEdits`: file edits and plain shell commands
 * inside the working folder run without prompts; writes outside it, and shell commands
 * Claude Code does not judge safe (`git commit`, anything with `${...}`), are refused and
 * reported in `permission_denials`. MCP servers come from a per-process `--mcp-config`
 * file with `--strict-mcp-config`, and their tools are allowed with `--allowedTools mcp__<name>`.
 */
export function createClaudeCodeEnvironment(
  options: AgentCliEnvironmentOptions,
): AgentCliEnvironment {
  const home = join(options.root, 'home');
  const configDir = join(options.root, 'claude-config');
  const tmp = join(options.root, 'tmp');
  for (const dir of [home, configDir, tmp]) mkdirSync(dir, { recursive: true });
  const files: string[] = [];

  const common = ['--output-format', 'json', '--permission-mode', 'acceptEdits'];
  if (options.model !== undefined) common.push('--model', options.model);
  const servers = Object.entries(options.mcpServers ?? {});
  if (servers.length > 0) {
    const mcpConfig = join(options.root, 'claude-mcp.json');
    const mcpServers = Object.fromEntries(
      servers.map(([name, server]) => [
        name,
        { command: server.command, args: server.args ?? [], env: server.env ?? {} },
      ]),
    );
    writeFileSync(mcpConfig, `${JSON.stringify({ mcpServers }, null, 2)}\n`);
    files.push(mcpConfig);
    common.push('--mcp-config', mcpConfig, '--strict-mcp-config');
    common.push('--allowedTools', ...servers.map(([name]) => `mcp__${name}`));
  }

  return {
    cli: 'claude',
    env: {
      ...baseEnvironment(home, tmp),
      CLAUDE_CONFIG_DIR: configDir,
      CLAUDE_CODE_TMPDIR: tmp,
      ANTHROPIC_BASE_URL: options.server.origin,
      ANTHROPIC_API_KEY: 'mock-key',
      CLAUDE_CODE_MAX_RETRIES: String(options.retries ?? 0),
      DISABLE_AUTOUPDATER: '1',
      DISABLE_TELEMETRY: '1',
      DISABLE_ERROR_REPORTING: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      ...options.env,
    },
    model: options.model,
    // `--allowedTools` takes several values: the prompt goes first so it is never taken for one.
    firstTurnArgs: (prompt) => ['-p', prompt, ...common],
    resumeTurnArgs: (sessionId, prompt) => ['-p', prompt, '--resume', sessionId, ...common],
    sessionIdFrom: (stdout) => {
      const id = parseJsonObject(stdout.trim())?.session_id;
      return typeof id === 'string' ? id : undefined;
    },
    files,
  };
}
