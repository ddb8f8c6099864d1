import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  GEMINI_CLI,
  GEMINI_CLI_VARIABLES,
  geminiCliMcpServers,
  geminiCliSettingsFile,
  geminiCliTurnArgs,
} from '@teamkit/agent-clis';
import {
  type AgentCliEnvironment,
  type AgentCliEnvironmentOptions,
  baseEnvironment,
} from './agent-cli-environment.js';

/**
 * Gemini CLI (`gemini --prompt`) against the Gemini API of a mock model server, with the
 * turn flags the `gemini` preset uses (`geminiCliTurnArgs` of `@teamkit/agent-clis`) but
 * no `--allowed-tools`. Gemini CLI 0.61 reads `GOOGLE_GEMINI_BASE_URL`, but with only that
 * and a key it picks the "gateway" auth type and then refuses it ("Invalid auth method
 * selected"), so `settings.json` selects `gemini-api-key` explicitly and the base URL
 * still comes from the environment. Edits go through `--approval-mode auto_edit`: its file
 * tools write only inside the workspace, and its shell tool is not offered at all (`yolo`
 * offers it, unconfined). MCP servers are `mcpServers` entries with `trust: true`; their
 * tools are named `mcp_<server>_<tool>`.
 */
export function createGeminiCliEnvironment(
  options: AgentCliEnvironmentOptions,
): AgentCliEnvironment {
  const home = join(options.root, 'home');
  const settingsFile = geminiCliSettingsFile(home);
  const tmp = join(options.root, 'tmp');
  for (const dir of [home, dirname(settingsFile), tmp]) mkdirSync(dir, { recursive: true });
  const model = options.model ?? 'gemini-2.5-flash';

  const mcpServers = geminiCliMcpServers(options.mcpServers ?? {});
  const settings = {
    security: { auth: { selectedType: 'gemini-api-key' } },
    // One attempt per retry plus the first; Gemini CLI's default is 10 with 5 s to 30 s waits.
    general: { maxAttempts: (options.retries ?? 0) + 1 },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    ...(Object.keys(mcpServers).length > 0 ? { mcpServers } : {}),
  };
  writeFileSync(settingsFile, `${JSON.stringify(settings, null, 2)}\n`);

  const turnOptions = { model };
  return {
    cli: 'gemini',
    env: {
      ...baseEnvironment(home, tmp),
      [GEMINI_CLI_VARIABLES.apiKey]: 'mock-key',
      [GEMINI_CLI_VARIABLES.baseUrl]: options.server.origin,
      ...options.env,
    },
    model,
    firstTurnArgs: (prompt) => geminiCliTurnArgs({ prompt }, turnOptions),
    resumeTurnArgs: (sessionId, prompt) => geminiCliTurnArgs({ prompt, sessionId }, turnOptions),
    sessionIdFrom: GEMINI_CLI.sessionIdFrom,
    files: [settingsFile],
  };
}
