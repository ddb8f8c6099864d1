/** The agent CLIs Teamkit knows how to run, by their command names. */
export const AGENT_CLI_NAMES = ['claude', 'codex', 'opencode', 'gemini'] as const;

/** One agent CLI: Claude Code, Codex, OpenCode or Gemini CLI, by its command name. */
export type AgentCliName = (typeof AGENT_CLI_NAMES)[number];

/** Whether a value names an agent CLI of {@link AGENT_CLI_NAMES}. */
export function isAgentCliName(value: unknown): value is AgentCliName {
  return typeof value === 'string' && (AGENT_CLI_NAMES as readonly string[]).includes(value);
}

/** What every agent CLI module says about its CLI. */
export interface AgentCli {
  name: AgentCliName;
  /** The CLI's display name, e.g. `Claude Code`. */
  title: string;
  /** The command it installs (its npm package's `bin` entry), looked up on `PATH`. */
  program: string;
  /** The npm package and the version Teamkit's presets and host tests were checked against. */
  install: { packageName: string; checkedVersion: string };
  /** The conversation id a one-shot turn printed, so the next turn continues it; `undefined` if none. */
  sessionIdFrom(stdout: string): string | undefined;
}

/** One one-shot turn: a new conversation, or the continuation of `sessionId`. */
export interface AgentCliTurn {
  prompt: string;
  sessionId?: string;
}

/** An MCP server (stdio) an agent CLI should start for its session. */
export interface AgentCliMcpServer {
  /** The program to run, e.g. `process.execPath`. */
  command: string;
  args?: readonly string[];
  /** Variables set for the server process (every CLI passes these). */
  env?: Readonly<Record<string, string>>;
  /**
   * Names of variables of the CLI's own environment to pass on. Codex starts MCP servers
   * with a cleared environment (only `HOME`, `PATH`, `TMPDIR` and the server's `env`), so
   * it needs them listed; the other CLIs pass their whole environment anyway.
   */
  inheritEnv?: readonly string[];
}
