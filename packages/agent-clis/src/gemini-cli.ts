import path from 'node:path';
import type { AgentCli, AgentCliMcpServer, AgentCliTurn } from './agent-cli.js';
import { sessionIdField } from './json-output.js';

/** Gemini CLI (`gemini --prompt`): its program, package and session ids (`session_id` of the JSON result). */
export const GEMINI_CLI: AgentCli = {
  name: 'gemini',
  title: 'Gemini CLI',
  program: 'gemini',
  install: { packageName: '@google/gemini-cli', checkedVersion: '0.61.0' },
  sessionIdFrom: sessionIdField,
};

/** The variables Gemini CLI reads that Teamkit's host tests set. */
export const GEMINI_CLI_VARIABLES = {
  apiKey: 'GEMINI_API_KEY',
  /** The Gemini API's origin; needs `security.auth.selectedType = "gemini-api-key"` in settings. */
  baseUrl: 'GOOGLE_GEMINI_BASE_URL',
} as const;

/** The user settings file Gemini CLI reads under `home`: `~/.gemini/settings.json`. */
export function geminiCliSettingsFile(home: string): string {
  return path.join(home, '.gemini', 'settings.json');
}

/**
 * The `mcpServers` settings entry of each MCP server (`trust: true`, so its calls are not
 * confirmed; tools are `mcp_<name>_<tool>`). Gemini CLI takes MCP servers only from
 * settings files, which is why its preset reaches the team through the `team` command.
 */
export function geminiCliMcpServers(
  servers: Readonly<Record<string, AgentCliMcpServer>>,
): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(servers).map(([name, server]) => [
      name,
      {
        command: server.command,
        args: [...(server.args ?? [])],
        env: { ...server.env },
        trust: true,
      },
    ]),
  );
}

/** Options of {@link geminiCliTurnArgs}. */
export interface GeminiCliTurnOptions {
  /** `--model`; without one every turn first asks a routing model. */
  model?: string;
  /**
   * Tools offered beyond `auto_edit`'s file tools, e.g. `run_shell_command(git)`; with
   * none, its shell is not offered at all.
   */
  allowedTools?: readonly string[];
}

/**
 * The arguments (program not included) of one `gemini --prompt` turn: JSON output,
 * `--skip-trust` (a worktree the user never marked trusted), `--approval-mode auto_edit`
 * (its file tools write only inside the workspace), `--resume <session>` to continue a
 * conversation, and one `--allowed-tools` flag per tool: it reads a second value after one
 * flag as a positional prompt and refuses to start.
 */
export function geminiCliTurnArgs(turn: AgentCliTurn, options: GeminiCliTurnOptions): string[] {
  const args = ['--prompt', turn.prompt];
  if (turn.sessionId !== undefined) args.push('--resume', turn.sessionId);
  args.push('--output-format', 'json', '--skip-trust', '--approval-mode', 'auto_edit');
  if (options.model !== undefined) args.push('--model', options.model);
  for (const tool of options.allowedTools ?? []) args.push('--allowed-tools', tool);
  return args;
}
