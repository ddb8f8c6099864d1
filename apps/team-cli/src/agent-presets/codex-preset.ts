import { IDENTITY_VARIABLES } from '@teamkit/mcp';
import {
  STORE_CREDS_VARIABLE,
  STORE_REPLICAS_VARIABLE,
  STORE_TLS_VARIABLES,
  STORE_VARIABLE,
} from '../store-selection/store-variables.js';
import { type AgentPreset, parseJsonLines } from './agent-preset.js';

/**
 * What the MCP server inherits (Codex clears its environment): the member's identity, and
 * the store of a run kept in NATS with its credentials, so the tools reach the shared run.
 */
export const CODEX_MCP_VARIABLES: readonly string[] = [
  ...IDENTITY_VARIABLES,
  STORE_VARIABLE,
  STORE_CREDS_VARIABLE,
  STORE_REPLICAS_VARIABLE,
  ...Object.values(STORE_TLS_VARIABLES),
];

/** A TOML value for a `-c key=value` override: JSON strings and arrays of them are valid TOML. */
const toml = (value: string | boolean | readonly string[]): string => JSON.stringify(value);

/**
 * Codex (`codex exec`), one process per turn. Everything Teamkit adds is a `-c key=value`
 * override on the command line, so the user's `config.toml` (provider, model, keys) is
 * read as usual and never rewritten: `approval_policy = "never"`, the `workspace-write`
 * sandbox (the worktree, plus its common git folder in `writable_roots` so commits work;
 * the temp folders excluded; no network), and the team's MCP server with the member's
 * identity and store listed in `env_vars` (Codex clears an MCP server's environment) and its tools
 * approved (`codex exec` refuses unapproved MCP calls). Resumed turns repeat the overrides:
 * `codex exec resume` has no `--sandbox` flag.
 */
export const codexPreset: AgentPreset = {
  name: 'codex',
  title: 'Codex',
  program: 'codex',
  install: { packageName: '@openai/codex', checkedVersion: '0.169.0' },
  mode: 'turns',
  mcpHost: 'codex',
  prepare(input) {
    const [command = process.execPath, ...args] = input.mcpCommand;
    const overrides: [string, string][] = [
      ['approval_policy', toml('never')],
      ['sandbox_mode', toml('workspace-write')],
      ['sandbox_workspace_write.writable_roots', toml(input.writableRoots)],
      ['sandbox_workspace_write.exclude_slash_tmp', toml(true)],
      ['sandbox_workspace_write.exclude_tmpdir_env_var', toml(true)],
      ['sandbox_workspace_write.network_access', toml(false)],
      ['mcp_servers.teamkit.command', toml(command)],
      ['mcp_servers.teamkit.args', toml([...args, '--host', 'codex'])],
      ['mcp_servers.teamkit.env_vars', toml(CODEX_MCP_VARIABLES)],
      ['mcp_servers.teamkit.default_tools_approval_mode', toml('approve')],
      // Codex gives an optional server about a second to start, then runs the turn without
      // its tools; a member without its team tools cannot work, so the turn waits for it
      // (and fails loudly if it cannot start).
      ['mcp_servers.teamkit.required', toml(true)],
      ['mcp_servers.teamkit.startup_timeout_sec', '60'],
    ];
    if (input.model !== undefined) overrides.push(['model', toml(input.model)]);
    const flags = ['--json', '--skip-git-repo-check'];
    for (const [key, value] of overrides) flags.push('-c', `${key}=${value}`);
    return {
      files: [],
      env: {},
      turnArgv: ({ prompt, sessionId }) =>
        sessionId === undefined
          ? [input.program, 'exec', ...flags, '--', prompt]
          : [input.program, 'exec', 'resume', ...flags, '--', sessionId, prompt],
      sessionIdFrom(stdout) {
        const started = parseJsonLines(stdout).find((event) => event.type === 'thread.started');
        return typeof started?.thread_id === 'string' ? started.thread_id : undefined;
      },
    };
  },
};
