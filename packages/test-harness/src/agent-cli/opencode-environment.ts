import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type AgentCliEnvironment,
  type AgentCliEnvironmentOptions,
  baseEnvironment,
  parseJsonLines,
} from './agent-cli-environment.js';

/** The `@opencode-ai/plugin` version OpenCode 1.18.33 installs into its config folders. */
const PLUGIN_VERSION = '1.18.33';

/**
 * OpenCode installs `@opencode-ai/plugin` into every config folder from the registry before it
 * loads plugins; a package.json, a lock naming it and a node_modules folder make it skip that.
 */
function markPluginDependencyInstalled(configDir: string): string[] {
  const dependencies = { '@opencode-ai/plugin': PLUGIN_VERSION };
  mkdirSync(join(configDir, 'node_modules'), { recursive: true });
  const manifest = join(configDir, 'package.json');
  const lock = join(configDir, 'package-lock.json');
  writeFileSync(manifest, JSON.stringify({ dependencies }));
  writeFileSync(lock, JSON.stringify({ lockfileVersion: 3, packages: { '': { dependencies } } }));
  return [manifest, lock];
}

/**
 * OpenCode (`opencode run`) against the chat completions API of a mock model server, as a
 * `mock` provider in the global `opencode.json` of a private XDG config home (nothing is
 * written into the project). File tools may write inside the working folder; paths outside
 * it are denied (`permission.external_directory = "deny"`: the model gets an error and the
 * turn goes on; OpenCode's default, `ask`, is auto-rejected by `run` and ends the turn).
 * OpenCode's shell tool is not sandboxed. MCP servers are `mcp.<name>` local servers; their
 * tools are named `<name>_<tool>`.
 */
export function createOpencodeEnvironment(
  options: AgentCliEnvironmentOptions,
): AgentCliEnvironment {
  const home = join(options.root, 'home');
  const configHome = join(home, '.config');
  const configDir = join(configHome, 'opencode');
  const tmp = join(options.root, 'tmp');
  for (const dir of [home, configDir, tmp]) mkdirSync(dir, { recursive: true });
  const model = options.model ?? 'mock-model';

  const mcp = Object.fromEntries(
    Object.entries(options.mcpServers ?? {}).map(([name, server]) => [
      name,
      {
        type: 'local',
        command: [server.command, ...(server.args ?? [])],
        environment: server.env ?? {},
        enabled: true,
      },
    ]),
  );
  const config = {
    $schema: 'https://opencode.ai/config.json',
    autoupdate: false,
    share: 'disabled',
    permission: { external_directory: 'deny' },
    provider: {
      mock: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Mock model server',
        options: { baseURL: options.server.url, apiKey: 'mock-key' },
        models: { [model]: { name: 'Mock model', tool_call: true } },
      },
    },
    ...(Object.keys(mcp).length > 0 ? { mcp } : {}),
  };
  const configFile = join(configDir, 'opencode.json');
  writeFileSync(configFile, `${JSON.stringify(config, null, 2)}\n`);
  const files = [configFile, ...markPluginDependencyInstalled(configDir)];

  const common = ['--format', 'json', '--model', `mock/${model}`];
  return {
    cli: 'opencode',
    env: {
      ...baseEnvironment(home, tmp),
      XDG_CONFIG_HOME: configHome,
      XDG_DATA_HOME: join(home, '.local', 'share'),
      XDG_CACHE_HOME: join(home, '.cache'),
      XDG_STATE_HOME: join(home, '.local', 'state'),
      // No models.dev catalogue, update check, sharing, language-server downloads or
      // Claude Code configuration from the machine.
      OPENCODE_DISABLE_MODELS_FETCH: '1',
      OPENCODE_DISABLE_AUTOUPDATE: '1',
      OPENCODE_DISABLE_SHARE: '1',
      OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
      OPENCODE_DISABLE_CLAUDE_CODE: '1',
      ...options.env,
    },
    model,
    firstTurnArgs: (prompt) => ['run', ...common, '--', prompt],
    resumeTurnArgs: (sessionId, prompt) => ['run', ...common, '--session', sessionId, '--', prompt],
    sessionIdFrom: (stdout) => {
      const event = parseJsonLines(stdout).find((line) => typeof line.sessionID === 'string');
      return event?.sessionID as string | undefined;
    },
    files,
  };
}
