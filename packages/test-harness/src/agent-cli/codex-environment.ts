import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type AgentCliEnvironment,
  type AgentCliEnvironmentOptions,
  baseEnvironment,
  parseJsonLines,
} from './agent-cli-environment.js';

const KEY_VARIABLE = 'TEAMKIT_MOCK_MODEL_KEY';

/** A TOML basic string: JSON's escapes are valid TOML escapes. */
function toml(value: string): string {
  return JSON.stringify(value);
}

function tomlArray(values: readonly string[]): string {
  return `[${values.map(toml).join(', ')}]`;
}

function tomlTable(values: Record<string, string>): string {
  return `{ ${Object.entries(values)
    .map(([key, value]) => `${toml(key)} = ${toml(value)}`)
    .join(', ')} }`;
}

/**
 * Codex (`codex exec`) against the OpenAI Responses API of a mock model server, configured
 * in its own `CODEX_HOME/config.toml`. Shell commands run in Codex's `workspace-write`
 * sandbox (bubblewrap): the working folder (and `writableRoots`) is writable, everything
 * else, the system temp folder and `$TMPDIR` included, is read-only; approvals never
 * prompt. Resumed turns (`codex exec resume`) take the same settings from the config file,
 * since `resume` has no `--sandbox` flag. MCP servers are `[mcp_servers.<name>]` tables
 * whose tools are approved.
 */
export function createCodexEnvironment(options: AgentCliEnvironmentOptions): AgentCliEnvironment {
  const home = join(options.root, 'home');
  const codexHome = join(options.root, 'codex-home');
  const tmp = join(options.root, 'tmp');
  for (const dir of [home, codexHome, tmp]) mkdirSync(dir, { recursive: true });
  const model = options.model ?? 'mock-model';
  const retries = options.retries ?? 0;

  const lines = [
    `model = ${toml(model)}`,
    'model_provider = "mock"',
    'approval_policy = "never"',
    'sandbox_mode = "workspace-write"',
    '',
    '[sandbox_workspace_write]',
    `writable_roots = ${tomlArray(options.writableRoots ?? [])}`,
    'exclude_slash_tmp = true',
    'exclude_tmpdir_env_var = true',
    'network_access = false',
    '',
    '[model_providers.mock]',
    'name = "Mock model server"',
    `base_url = ${toml(options.server.url)}`,
    'wire_api = "responses"',
    `env_key = ${toml(KEY_VARIABLE)}`,
    `request_max_retries = ${retries}`,
    `stream_max_retries = ${retries}`,
  ];
  for (const [name, server] of Object.entries(options.mcpServers ?? {})) {
    lines.push(
      '',
      `[mcp_servers.${toml(name)}]`,
      `command = ${toml(server.command)}`,
      `args = ${tomlArray(server.args ?? [])}`,
      `env = ${tomlTable(server.env ?? {})}`,
      `env_vars = ${tomlArray(server.inheritEnv ?? [])}`,
      // Without this, `codex exec` refuses every MCP tool call ("requires approval").
      'default_tools_approval_mode = "approve"',
    );
  }
  const configFile = join(codexHome, 'config.toml');
  writeFileSync(configFile, `${lines.join('\n')}\n`);

  const common = ['--json', '--skip-git-repo-check'];
  return {
    cli: 'codex',
    env: {
      ...baseEnvironment(home, tmp),
      CODEX_HOME: codexHome,
      [KEY_VARIABLE]: 'mock-key',
      ...options.env,
    },
    model,
    firstTurnArgs: (prompt) => ['exec', ...common, '--', prompt],
    resumeTurnArgs: (sessionId, prompt) => ['exec', 'resume', ...common, '--', sessionId, prompt],
    sessionIdFrom: (stdout) => {
      const started = parseJsonLines(stdout).find((event) => event.type === 'thread.started');
      return typeof started?.thread_id === 'string' ? started.thread_id : undefined;
    },
    files: [configFile],
  };
}
