/** The agent CLIs the test harness can locate and drive against a mock model server. */
export const AGENT_CLI_NAMES = ['claude', 'codex', 'opencode', 'gemini'] as const;

/** One agent CLI: Claude Code, Codex, OpenCode or Gemini CLI, by its command name. */
export type AgentCliName = (typeof AGENT_CLI_NAMES)[number];

/** Where each CLI comes from: its npm package, the `bin` entry to run, and the version checked. */
export const AGENT_CLI_PACKAGES: Record<
  AgentCliName,
  { packageName: string; bin: string; checkedVersion: string }
> = {
  claude: { packageName: '@anthropic-ai/claude-code', bin: 'claude', checkedVersion: '2.1.328' },
  codex: { packageName: '@openai/codex', bin: 'codex', checkedVersion: '0.169.0' },
  opencode: { packageName: 'opencode-ai', bin: 'opencode', checkedVersion: '1.18.33' },
  gemini: { packageName: '@google/gemini-cli', bin: 'gemini', checkedVersion: '0.61.0' },
};

/** Whether a value names an agent CLI the harness knows. */
export function isAgentCliName(value: unknown): value is AgentCliName {
  return typeof value === 'string' && (AGENT_CLI_NAMES as readonly string[]).includes(value);
}
