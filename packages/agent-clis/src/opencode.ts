import type { AgentCli, AgentCliMcpServer, AgentCliTurn } from './agent-cli.js';
import { parseJsonLines } from './json-output.js';

/** OpenCode (`opencode run`): its program, package and session ids (`sessionID` of its JSON events). */
export const OPENCODE: AgentCli = {
  name: 'opencode',
  title: 'OpenCode',
  program: 'opencode',
  install: { packageName: 'opencode-ai', checkedVersion: '1.18.33' },
  sessionIdFrom(stdout) {
    const event = parseJsonLines(stdout).find((line) => typeof line.sessionID === 'string');
    return event?.sessionID as string | undefined;
  },
};

/** The variables OpenCode reads that Teamkit or its host tests set. */
export const OPENCODE_VARIABLES = {
  /** A configuration file merged over the user's global one (providers, keys, agents stay). */
  config: 'OPENCODE_CONFIG',
  /** Its global configuration lives in `$XDG_CONFIG_HOME/opencode/opencode.json`. */
  configHome: 'XDG_CONFIG_HOME',
} as const;

/**
 * The configuration Teamkit adds to OpenCode, for the file {@link OPENCODE_VARIABLES}`.config`
 * names: paths outside the working folder denied (`permission.external_directory =
 * "deny"`: the model gets an error and the turn goes on, where the default `ask` would end
 * a non-interactive turn) and each MCP server as a `local` server (OpenCode passes its
 * whole environment to it; tools are `<name>_<tool>`).
 */
export function opencodeConfig(
  mcpServers: Readonly<Record<string, AgentCliMcpServer>> = {},
): Record<string, unknown> {
  const mcp = Object.fromEntries(
    Object.entries(mcpServers).map(([name, server]) => [
      name,
      {
        type: 'local',
        command: [server.command, ...(server.args ?? [])],
        environment: { ...server.env },
        enabled: true,
      },
    ]),
  );
  return {
    $schema: 'https://opencode.ai/config.json',
    permission: { external_directory: 'deny' },
    ...(Object.keys(mcp).length > 0 ? { mcp } : {}),
  };
}

/** Options of {@link opencodeTurnArgs}. */
export interface OpencodeTurnOptions {
  /** `--model <provider>/<model>`; the user's configuration decides when absent. */
  model?: string;
}

/**
 * The arguments (program not included) of one `opencode run` turn: JSON events, `--session
 * <session>` to continue a conversation, the prompt after `--`. Run it with stdin closed:
 * `opencode run` waits on a stdin pipe.
 */
export function opencodeTurnArgs(turn: AgentCliTurn, options: OpencodeTurnOptions): string[] {
  const args = ['run', '--format', 'json'];
  if (options.model !== undefined) args.push('--model', options.model);
  if (turn.sessionId !== undefined) args.push('--session', turn.sessionId);
  args.push('--', turn.prompt);
  return args;
}
