import { fileURLToPath } from 'node:url';
import { DEFAULT_SERVER_NAME, type McpHostName } from './mcp-host-names.js';

/** The variables identity comes from; hosts that clear a server's environment must pass them. */
export const IDENTITY_VARIABLES = [
  'TEAMKIT_HOME',
  'TEAMKIT_RUN',
  'TEAMKIT_MEMBER',
  'TEAMKIT_TOKEN',
] as const;

/** What one host's configuration for the server says. */
export interface McpHostConfigInput {
  host: McpHostName;
  /** The program and arguments that start the server (default: this Node and `teamkit-mcp`). */
  command?: readonly string[];
  /** More server arguments (`--tools lead`); `--host <host>` is always added. */
  args?: readonly string[];
  /** Fixed variables for the server, e.g. a member's identity for a hand-started agent. */
  env?: Readonly<Record<string, string>>;
  /** The server's name in the host (default `teamkit`). */
  serverName?: string;
}

/** A host's configuration: its format, the text to print, and the entry to merge into a file. */
export interface McpHostConfig {
  host: McpHostName;
  format: 'json' | 'toml';
  /** The whole snippet, ready to print or to paste. */
  text: string;
  /** For JSON hosts: the key path of the server's entry and the entry itself. */
  entry: { path: readonly string[]; value: Record<string, unknown> };
  /** For JSON hosts: lists the host must also hold these values in (merged, not replaced). */
  lists: { path: readonly string[]; values: readonly string[] }[];
}

/** The command that runs this package's `teamkit-mcp` with the current Node, needing no PATH. */
export function teamkitMcpCommand(): string[] {
  return [process.execPath, fileURLToPath(new URL('./bin.js', import.meta.url))];
}

function toml(value: string): string {
  return JSON.stringify(value);
}

function tomlArray(values: readonly string[]): string {
  return `[${values.map(toml).join(', ')}]`;
}

function tomlTable(values: Readonly<Record<string, string>>): string {
  const pairs = Object.entries(values).map(([key, value]) => `${toml(key)} = ${toml(value)}`);
  return pairs.length === 0 ? '{}' : `{ ${pairs.join(', ')} }`;
}

/**
 * Renders the server's configuration for one host, as docs/adapters/mcp.md says each needs
 * it: Claude Code `.mcp.json` `mcpServers`; Codex `[mcp_servers.<name>]` with `env_vars`
 * (Codex clears a server's environment) and `default_tools_approval_mode = "approve"`
 * (else `codex exec` refuses every call); Gemini CLI `mcpServers` with `trust: true` and
 * `TEAMKIT_TOKEN` allowed through its secret redaction;
 * OpenCode `mcp` with a `local` command.
 */
export function renderMcpHostConfig(input: McpHostConfigInput): McpHostConfig {
  const name = input.serverName ?? DEFAULT_SERVER_NAME;
  const [command, ...commandArgs] = input.command ?? teamkitMcpCommand();
  if (command === undefined) throw new Error('an MCP server command needs a program');
  const args = [...commandArgs, '--host', input.host, ...(input.args ?? [])];
  if (name !== DEFAULT_SERVER_NAME) args.push('--name', name);
  const env = { ...(input.env ?? {}) };
  const json = (
    path: string[],
    value: Record<string, unknown>,
    lists: McpHostConfig['lists'] = [],
  ): McpHostConfig => {
    const document: Record<string, unknown> = {};
    const place = (keys: readonly string[], leaf: unknown) => {
      let parent = document;
      for (const key of keys.slice(0, -1)) {
        parent[key] ??= {};
        parent = parent[key] as Record<string, unknown>;
      }
      parent[keys.at(-1) as string] = leaf;
    };
    for (const list of lists) place(list.path, [...list.values]);
    place(path, value);
    return {
      host: input.host,
      format: 'json',
      text: `${JSON.stringify(document, null, 2)}\n`,
      entry: { path, value },
      lists,
    };
  };
  switch (input.host) {
    case 'claude':
      return json(['mcpServers', name], { command, args, env });
    case 'gemini':
      // Gemini CLI hands a server its environment without anything named like a secret:
      // TEAMKIT_TOKEN must be allowed by name, or the member's server cannot prove who it is.
      return json(['mcpServers', name], { command, args, env, trust: true }, [
        {
          path: ['security', 'environmentVariableRedaction', 'allowed'],
          values: ['TEAMKIT_TOKEN'],
        },
      ]);
    case 'opencode':
      return json(['mcp', name], {
        type: 'local',
        command: [command, ...args],
        environment: env,
        enabled: true,
      });
    case 'codex': {
      const lines = [
        `[mcp_servers.${/^[A-Za-z0-9_-]+$/.test(name) ? name : toml(name)}]`,
        `command = ${toml(command)}`,
        `args = ${tomlArray(args)}`,
        `env = ${tomlTable(env)}`,
        // Codex starts servers with only HOME, PATH, TMPDIR and these: identity must be listed.
        `env_vars = ${tomlArray(IDENTITY_VARIABLES)}`,
        // Without it `codex exec` refuses every call ("requires approval").
        'default_tools_approval_mode = "approve"',
      ];
      return {
        host: 'codex',
        format: 'toml',
        text: `${lines.join('\n')}\n`,
        entry: { path: ['mcp_servers', name], value: { command, args, env } },
        lists: [],
      };
    }
  }
}
