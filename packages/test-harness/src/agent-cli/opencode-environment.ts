import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  OPENCODE,
  OPENCODE_VARIABLES,
  opencodeConfig,
  opencodeTurnArgs,
} from '@teamkit/agent-clis';
import {
  type AgentCliEnvironment,
  type AgentCliEnvironmentOptions,
  baseEnvironment,
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
 * OpenCode (`opencode run`) against the chat completions API of a mock model server. The
 * global `opencode.json` of a private XDG config home plays the user's configuration (the
 * `mock` provider; no update check, no sharing; nothing is written into the project), and
 * a per-process file named by `OPENCODE_CONFIG` holds what the `opencode` preset adds
 * (`opencodeConfig` of `@teamkit/agent-clis`): paths outside the working folder denied
 * (`permission.external_directory = "deny"`: the model gets an error and the turn goes on;
 * OpenCode's default, `ask`, is auto-rejected by `run` and ends the turn) and MCP servers
 * as `mcp.<name>` local servers, whose tools are named `<name>_<tool>`. OpenCode's shell
 * tool is not sandboxed.
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

  const config = {
    $schema: 'https://opencode.ai/config.json',
    autoupdate: false,
    share: 'disabled',
    provider: {
      mock: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Mock model server',
        options: { baseURL: options.server.url, apiKey: 'mock-key' },
        models: { [model]: { name: 'Mock model', tool_call: true } },
      },
    },
  };
  const configFile = join(configDir, 'opencode.json');
  writeFileSync(configFile, `${JSON.stringify(config, null, 2)}\n`);
  const addedFile = join(options.root, 'opencode.json');
  writeFileSync(addedFile, `${JSON.stringify(opencodeConfig(options.mcpServers), null, 2)}\n`);
  const files = [configFile, ...markPluginDependencyInstalled(configDir), addedFile];

  const turnOptions = { model: `mock/${model}` };
  return {
    cli: 'opencode',
    env: {
      ...baseEnvironment(home, tmp),
      [OPENCODE_VARIABLES.configHome]: configHome,
      [OPENCODE_VARIABLES.config]: addedFile,
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
    firstTurnArgs: (prompt) => opencodeTurnArgs({ prompt }, turnOptions),
    resumeTurnArgs: (sessionId, prompt) => opencodeTurnArgs({ prompt, sessionId }, turnOptions),
    sessionIdFrom: OPENCODE.sessionIdFrom,
    files,
  };
}
