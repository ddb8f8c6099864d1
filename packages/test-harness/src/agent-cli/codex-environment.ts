import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CODEX, CODEX_VARIABLES, codexTurnArgs } from '@teamkit/agent-clis';
import {
  type AgentCliEnvironment,
  type AgentCliEnvironmentOptions,
  baseEnvironment,
} from './agent-cli-environment.js';

const KEY_VARIABLE = 'TEAMKIT_MOCK_MODEL_KEY';

/** A TOML basic string: JSON's escapes are valid TOML escapes. */
function toml(value: string): string {
  return JSON.stringify(value);
}

/**
 * Codex (`codex exec`) against the OpenAI Responses API of a mock model server. Its own
 * `CODEX_HOME/config.toml` plays the user's configuration: the model and the `mock`
 * provider, nothing else. Everything else comes from the `-c` overrides the `codex` preset
 * uses (`codexTurnArgs` of `@teamkit/agent-clis`), on every turn: shell commands run in
 * Codex's `workspace-write` sandbox (bubblewrap): the working folder (and `writableRoots`)
 * is writable, everything else, the system temp folder and `$TMPDIR` included, is
 * read-only; approvals never prompt; MCP servers are required and their tools approved.
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
    '',
    '[model_providers.mock]',
    'name = "Mock model server"',
    `base_url = ${toml(options.server.url)}`,
    'wire_api = "responses"',
    `env_key = ${toml(KEY_VARIABLE)}`,
    `request_max_retries = ${retries}`,
    `stream_max_retries = ${retries}`,
  ];
  const configFile = join(codexHome, 'config.toml');
  writeFileSync(configFile, `${lines.join('\n')}\n`);

  const turnOptions = {
    writableRoots: options.writableRoots ?? [],
    ...(options.mcpServers === undefined ? {} : { mcpServers: options.mcpServers }),
  };
  return {
    cli: 'codex',
    env: {
      ...baseEnvironment(home, tmp),
      [CODEX_VARIABLES.home]: codexHome,
      [KEY_VARIABLE]: 'mock-key',
      ...options.env,
    },
    model,
    firstTurnArgs: (prompt) => codexTurnArgs({ prompt }, turnOptions),
    resumeTurnArgs: (sessionId, prompt) => codexTurnArgs({ prompt, sessionId }, turnOptions),
    sessionIdFrom: CODEX.sessionIdFrom,
    files: [configFile],
  };
}
