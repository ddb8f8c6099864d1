import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type AgentCliEnvironment,
  type AgentCliEnvironmentOptions,
  baseEnvironment,
  parseJsonObject,
} from './agent-cli-environment.js';

/**
 * Gemini CLI (`gemini -p`) against the Gemini API of a mock model server. Gemini CLI 0.61
 * reads `GOOGLE_GEMINI_BASE_URL`, but with only that and a key it picks the "gateway" auth
 * type and then refuses it ("Invalid auth method selected"), so `settings.json` selects
 * `gemini-api-key` explicitly and the base URL still comes from the environment. Edits go
 * through `--approval-mode auto_edit`: its file tools write only inside the workspace, and
 * its shell tool is not offered at all (`yolo` offers it, unconfined). MCP servers are
 * `mcpServers` entries with `trust: true`; their tools are named `mcp_<server>_<tool>`.
 */
export function createGeminiCliEnvironment(
  options: AgentCliEnvironmentOptions,
): AgentCliEnvironment {
  const home = join(options.root, 'home');
  const settingsDir = join(home, '.gemini');
  const tmp = join(options.root, 'tmp');
  for (const dir of [home, settingsDir, tmp]) mkdirSync(dir, { recursive: true });
  const model = options.model ?? 'gemini-2.5-flash';

  const mcpServers = Object.fromEntries(
    Object.entries(options.mcpServers ?? {}).map(([name, server]) => [
      name,
      { command: server.command, args: server.args ?? [], env: server.env ?? {}, trust: true },
    ]),
  );
  const settings = {
    security: { auth: { selectedType: 'gemini-api-key' } },
    // One attempt per retry plus the first; Gemini CLI's default is 10 with 5 s to 30 s waits.
    general: { maxAttempts: (options.retries ?? 0) + 1 },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    ...(Object.keys(mcpServers).length > 0 ? { mcpServers } : {}),
  };
  const settingsFile = join(settingsDir, 'settings.json');
  writeFileSync(settingsFile, `${JSON.stringify(settings, null, 2)}\n`);

  const common = ['--output-format', 'json', '--skip-trust', '--model', model];
  common.push('--approval-mode', 'auto_edit');
  return {
    cli: 'gemini',
    env: {
      ...baseEnvironment(home, tmp),
      GEMINI_API_KEY: 'mock-key',
      GOOGLE_GEMINI_BASE_URL: options.server.origin,
      ...options.env,
    },
    model,
    firstTurnArgs: (prompt) => ['--prompt', prompt, ...common],
    resumeTurnArgs: (sessionId, prompt) => ['--prompt', prompt, '--resume', sessionId, ...common],
    sessionIdFrom: (stdout) => {
      const id = parseJsonObject(stdout.trim())?.session_id;
      return typeof id === 'string' ? id : undefined;
    },
    files: [settingsFile],
  };
}
