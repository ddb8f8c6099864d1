import type { AgentCliMcpServer, AgentCliName } from '@teamkit/agent-clis';

export type { AgentCliMcpServer } from '@teamkit/agent-clis';

/** Options of {@link createAgentCliEnvironment}. */
export interface AgentCliEnvironmentOptions {
  /**
   * A folder the environment owns (created if missing): the CLI's home, config folder and
   * temp folder go inside, so nothing reads or writes the user's real configuration.
   */
  root: string;
  /** The mock model server to talk to (`url` ends in `/v1`; `origin` has no path). */
  server: { url: string; origin: string };
  /**
   * The model id the CLI asks for. Defaults: `mock-model` (Codex, OpenCode),
   * `gemini-2.5-flash` (Gemini CLI; an explicit model skips its routing request), and the
   * CLI's own default for Claude Code (`claude-opus-5-5` in 2.1.328).
   */
  model?: string;
  /** MCP servers to load, by name (tools are then named after it, e.g. `mcp__<name>__<tool>`). */
  mcpServers?: Record<string, AgentCliMcpServer>;
  /**
   * How often the CLI retries a failed model call; 0 by default, so a scripted outage ends
   * the turn at once. OpenCode has no such setting: script `retryAfterMs` instead.
   */
  retries?: number;
  /**
   * Codex only: more folders its sandbox may write besides the working folder, such as a
   * repository's git folder (Codex's `workspace-write` sandbox keeps `.git` read-only, so
   * `git commit` fails without it).
   */
  writableRoots?: string[];
  /** Variables added to the CLI's environment (identity for its MCP servers, for instance). */
  env?: NodeJS.ProcessEnv;
}

/** An isolated environment for one agent CLI, pointed at a mock model server. */
export interface AgentCliEnvironment {
  cli: AgentCliName;
  /** The whole environment to spawn the CLI with (not to be merged into `process.env`). */
  env: NodeJS.ProcessEnv;
  /** The model id the requests carry, when the environment chooses it. */
  model: string | undefined;
  /** The argument array of a turn that starts a new conversation with `prompt`. */
  firstTurnArgs(prompt: string): string[];
  /** The argument array of a turn that continues conversation `sessionId` with `prompt`. */
  resumeTurnArgs(sessionId: string, prompt: string): string[];
  /** The conversation id a turn printed (its JSON output), or `undefined`. */
  sessionIdFrom(stdout: string): string | undefined;
  /** Configuration files written for this environment. */
  files: string[];
}

/** The variables every environment starts from: PATH only, never the user's keys or config. */
export function baseEnvironment(home: string, tmp: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: home,
    USERPROFILE: home,
    TMPDIR: tmp,
    NO_PROXY: '127.0.0.1,localhost',
    NO_COLOR: '1',
  };
}
