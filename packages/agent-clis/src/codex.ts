import { TeamkitError } from '@teamkit/team-core/errors';
import type { AgentCli, AgentCliMcpServer, AgentCliTurn } from './agent-cli.js';
import { parseJsonLines } from './json-output.js';

/** Codex (`codex exec`): its program, package and session ids (`thread_id` of `thread.started`). */
export const CODEX: AgentCli = {
  name: 'codex',
  title: 'Codex',
  program: 'codex',
  install: { packageName: '@openai/codex', checkedVersion: '0.169.0' },
  sessionIdFrom(stdout) {
    const started = parseJsonLines(stdout).find((event) => event.type === 'thread.started');
    return typeof started?.thread_id === 'string' ? started.thread_id : undefined;
  },
};

/** The variables Codex reads that Teamkit or its host tests set. */
export const CODEX_VARIABLES = {
  /** Its configuration folder, holding `config.toml` (default `~/.codex`). */
  home: 'CODEX_HOME',
} as const;

/** Options of {@link codexSettings} and {@link codexTurnArgs}. */
export interface CodexTurnOptions {
  /** `model`; the user's `config.toml` (or Codex's default) decides when absent. */
  model?: string;
  /**
   * Folders its sandbox may write besides the working folder: the repository's git folders,
   * since `workspace-write` keeps `.git` read-only and `git commit` fails without them.
   */
  writableRoots?: readonly string[];
  /** MCP servers by name; their tools are approved and the server is required. */
  mcpServers?: Readonly<Record<string, AgentCliMcpServer>>;
}

/** A TOML value for a `-c key=value` override: JSON strings, booleans and arrays of strings are valid TOML. */
const toml = (value: string | boolean | readonly string[]): string => JSON.stringify(value);

/** A bare TOML key segment; `-c` keys are split at dots, so a name must be one plain segment. */
function keySegment(what: string, name: string): string {
  if (!/^[A-Za-z0-9_-]+$/.test(name)) {
    throw new TeamkitError(
      'INVALID_INPUT',
      `The ${what} "${name}" cannot be given to Codex: use letters, digits, "_" and "-" only.`,
      { details: { [what.replace(/ /g, '_')]: name } },
    );
  }
  return name;
}

/**
 * The settings Teamkit adds to Codex, as `[key, TOML value]` pairs: `approval_policy =
 * "never"`, the `workspace-write` sandbox (the working folder plus `writableRoots`; the temp
 * folders excluded; no network), the model when given, and per MCP server its command,
 * arguments, fixed `env`, the inherited `env_vars` (Codex clears a server's environment),
 * `default_tools_approval_mode = "approve"` (`codex exec` refuses unapproved calls) and
 * `required` with a 60 s start-up (Codex gives an optional server about a second, then runs
 * the turn without its tools; a member without its team tools cannot work).
 */
export function codexSettings(options: CodexTurnOptions): [string, string][] {
  const settings: [string, string][] = [
    ['approval_policy', toml('never')],
    ['sandbox_mode', toml('workspace-write')],
    ['sandbox_workspace_write.writable_roots', toml(options.writableRoots ?? [])],
    ['sandbox_workspace_write.exclude_slash_tmp', toml(true)],
    ['sandbox_workspace_write.exclude_tmpdir_env_var', toml(true)],
    ['sandbox_workspace_write.network_access', toml(false)],
  ];
  for (const [name, server] of Object.entries(options.mcpServers ?? {})) {
    const key = `mcp_servers.${keySegment('MCP server name', name)}`;
    settings.push([`${key}.command`, toml(server.command)]);
    settings.push([`${key}.args`, toml(server.args ?? [])]);
    for (const [variable, value] of Object.entries(server.env ?? {}))
      settings.push([`${key}.env.${keySegment('variable name', variable)}`, toml(value)]);
    settings.push([`${key}.env_vars`, toml(server.inheritEnv ?? [])]);
    settings.push([`${key}.default_tools_approval_mode`, toml('approve')]);
    settings.push([`${key}.required`, toml(true)]);
    settings.push([`${key}.startup_timeout_sec`, '60']);
  }
  if (options.model !== undefined) settings.push(['model', toml(options.model)]);
  return settings;
}

/**
 * The arguments (program not included) of one `codex exec` turn: JSON-lines output, no git
 * check, and every setting of {@link codexSettings} as a `-c key=value` override, so the
 * user's `config.toml` (provider, model, keys) is read as usual and never rewritten. A
 * resumed turn (`codex exec resume … -- <session> <prompt>`) repeats the overrides:
 * `resume` has no `--sandbox` flag.
 */
export function codexTurnArgs(turn: AgentCliTurn, options: CodexTurnOptions): string[] {
  const flags = ['--json', '--skip-git-repo-check'];
  for (const [key, value] of codexSettings(options)) flags.push('-c', `${key}=${value}`);
  return turn.sessionId === undefined
    ? ['exec', ...flags, '--', turn.prompt]
    : ['exec', 'resume', ...flags, '--', turn.sessionId, turn.prompt];
}
