import type { AgentCli, AgentCliMcpServer, AgentCliTurn } from './agent-cli.js';
import { sessionIdField } from './json-output.js';

/** Claude Code (`claude -p`): its program, package and session ids (`session_id` of the JSON result). */
export const CLAUDE_CODE: AgentCli = {
  name: 'claude',
  title: 'Claude Code',
  program: 'claude',
  install: { packageName: '@anthropic-ai/claude-code', checkedVersion: '2.1.328' },
  sessionIdFrom: sessionIdField,
};

/** The variables Claude Code reads that Teamkit or its host tests set. */
export const CLAUDE_CODE_VARIABLES = {
  /** Its configuration folder (default `~/.claude`). */
  configFolder: 'CLAUDE_CONFIG_DIR',
  /** Where it puts its temp files (default: `claude-<uid>` folders in the system temp folder). */
  tmpFolder: 'CLAUDE_CODE_TMPDIR',
  /** The Anthropic API's origin, without `/v1`. */
  baseUrl: 'ANTHROPIC_BASE_URL',
  apiKey: 'ANTHROPIC_API_KEY',
  /** How often a failed model call is retried (with growing waits by default). */
  maxRetries: 'CLAUDE_CODE_MAX_RETRIES',
} as const;

/** Variables that turn off Claude Code's update check, telemetry, error reports and other traffic. */
export const CLAUDE_CODE_QUIET_ENV: Readonly<Record<string, string>> = {
  DISABLE_AUTOUPDATER: '1',
  DISABLE_TELEMETRY: '1',
  DISABLE_ERROR_REPORTING: '1',
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
};

/** The `--allowedTools` entry that allows every tool of MCP server `name` (`mcp__<name>__<tool>`). */
export function claudeCodeMcpTools(name: string): string {
  return `mcp__${name}`;
}

/** The text of an `--mcp-config` file: `{"mcpServers": {"<name>": {command, args, env}}}`. */
export function claudeCodeMcpConfig(servers: Readonly<Record<string, AgentCliMcpServer>>): string {
  const mcpServers = Object.fromEntries(
    Object.entries(servers).map(([name, server]) => [
      name,
      { command: server.command, args: [...(server.args ?? [])], env: { ...server.env } },
    ]),
  );
  return `${JSON.stringify({ mcpServers }, null, 2)}\n`;
}

/** Options of {@link claudeCodeTurnArgs}. */
export interface ClaudeCodeTurnOptions {
  /** `--model`; Claude Code's default when absent. */
  model?: string;
  /** An `--mcp-config` file (see {@link claudeCodeMcpConfig}). */
  mcpConfigFile?: string;
  /** `--allowedTools`: tools `-p` may use without a prompt besides plain edits. */
  allowedTools?: readonly string[];
}

/**
 * The arguments (program not included) of one `claude -p` turn: JSON output,
 * `--permission-mode acceptEdits` (file edits and plain shell commands inside the working
 * folder, nothing outside it), `--resume <session>` to continue a conversation.
 *
 * The MCP servers of `--mcp-config` are added to the ones the user configured; there is
 * no `--strict-mcp-config`. Codex's `-c` overrides, OpenCode's `OPENCODE_CONFIG` and
 * Gemini CLI's settings all keep the user's own servers too, and Teamkit never rewrites a
 * CLI's configuration, so a member works with the tools its user set up plus its team's;
 * an isolated run (the host tests) gets its isolation from a private configuration folder
 * ({@link CLAUDE_CODE_VARIABLES}`.configFolder`), not from this flag.
 */
export function claudeCodeTurnArgs(turn: AgentCliTurn, options: ClaudeCodeTurnOptions): string[] {
  const args = ['-p', turn.prompt];
  if (turn.sessionId !== undefined) args.push('--resume', turn.sessionId);
  args.push('--output-format', 'json', '--permission-mode', 'acceptEdits');
  if (options.model !== undefined) args.push('--model', options.model);
  if (options.mcpConfigFile !== undefined) args.push('--mcp-config', options.mcpConfigFile);
  // `--allowedTools` takes several values, so it comes last and the prompt first.
  if (options.allowedTools !== undefined && options.allowedTools.length > 0) {
    args.push('--allowedTools', ...options.allowedTools);
  }
  return args;
}
