import { AGENT_CLI_NAMES, type AgentCliTurn } from '@teamkit/agent-clis';

/**
 * The agent presets `team run start --agent` and team packages can name: each agent CLI of
 * `@teamkit/agent-clis`, and the scripted `teamkit-agent`.
 */
export const AGENT_PRESET_NAMES = [...AGENT_CLI_NAMES, 'teamkit-agent'] as const;

/** One of {@link AGENT_PRESET_NAMES}. */
export type AgentPresetName = (typeof AGENT_PRESET_NAMES)[number];

/** Whether `name` is a preset name. */
export function isAgentPresetName(name: string): name is AgentPresetName {
  return (AGENT_PRESET_NAMES as readonly string[]).includes(name);
}

/** How a member's process lives: one process per turn, or one process for the whole run. */
export type AgentMode = 'turns' | 'long-lived';

/** What a preset needs to know to start one member's turns. */
export interface PresetMemberInput {
  /** The agent CLI to run: its absolute path (resolved at run start) or its name. */
  program: string;
  /**
   * A private folder of the member under the run (`runtime/<run>/agents/<member>/`): the
   * per-member configuration files a preset writes go here, never into the user's own
   * configuration.
   */
  folder: string;
  /** The member's working folder (its worktree). */
  cwd: string;
  /** The model to ask for, in the CLI's own words; the CLI's default when absent. */
  model?: string;
  /** The program and arguments that start the Teamkit MCP server for this member. */
  mcpCommand: readonly string[];
  /**
   * Folders besides `cwd` the member's edits may reach: the worktree's common git folder,
   * so `git commit` works where a CLI sandboxes its shell (Codex).
   */
  writableRoots: readonly string[];
}

/** A file a preset writes for a member before its first turn. */
export interface PresetFile {
  path: string;
  text: string;
}

/** One turn to start: a new conversation, or the continuation of `sessionId`. */
export type PresetTurn = AgentCliTurn;

/** A preset bound to one member: its files, its extra environment and its turn commands. */
export interface PreparedAgent {
  /** Configuration files to write before the first turn (private, under the member's folder). */
  files: PresetFile[];
  /**
   * Variables added to the member's environment for every turn (a config file's path);
   * the member's `TEAMKIT_*` identity and its secret come from the host, not from here.
   */
  env: Record<string, string>;
  /** The argument array (program first) of one turn. */
  turnArgv(turn: PresetTurn): string[];
  /** The conversation id a turn printed, so the next turn continues it; `undefined` if none. */
  sessionIdFrom(stdout: string): string | undefined;
  /** A file each turn's prompt is written to first (the `{prompt-file}` of one-shot templates). */
  turnFile?: string;
}

/** An agent CLI Teamkit knows how to run as a member. */
export interface AgentPreset {
  name: AgentPresetName;
  /** The CLI's display name, e.g. `Claude Code`. */
  title: string;
  /** The command looked up on PATH, e.g. `claude`. */
  program: string;
  /** The npm package and the version Teamkit checked it against (from `@teamkit/agent-clis`). */
  install: { packageName: string; checkedVersion: string } | undefined;
  mode: AgentMode;
  /**
   * The MCP host whose tool names the member's prompt uses; `undefined` when the member
   * reaches its team through the `team` command instead.
   */
  mcpHost: 'claude' | 'codex' | 'gemini' | 'opencode' | undefined;
  /** Binds the preset to one member (pure: writes nothing). */
  prepare(input: PresetMemberInput): PreparedAgent;
}
