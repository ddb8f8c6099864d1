import { CODEX, codexTurnArgs } from '@teamkit/agent-clis';
import { IDENTITY_VARIABLES } from '@teamkit/mcp';
import {
  STORE_CREDS_VARIABLE,
  STORE_REPLICAS_VARIABLE,
  STORE_TLS_VARIABLES,
  STORE_VARIABLE,
} from '../store-selection/store-variables.js';
import type { AgentPreset } from './agent-preset.js';

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

/**
 * Codex (`codex exec`), one process per turn, with the `-c` overrides of
 * `@teamkit/agent-clis` (`codexTurnArgs`), so the user's `config.toml` (provider, model,
 * keys) is read as usual and never rewritten: no approvals, the `workspace-write` sandbox
 * with the worktree's git folders writable so commits work, and the team's MCP server,
 * required, its tools approved, with the member's identity and store listed in `env_vars`.
 */
export const codexPreset: AgentPreset = {
  name: 'codex',
  title: CODEX.title,
  program: CODEX.program,
  install: CODEX.install,
  mode: 'turns',
  mcpHost: 'codex',
  prepare(input) {
    const [command = process.execPath, ...args] = input.mcpCommand;
    const options = {
      ...(input.model === undefined ? {} : { model: input.model }),
      writableRoots: input.writableRoots,
      mcpServers: {
        teamkit: { command, args: [...args, '--host', 'codex'], inheritEnv: CODEX_MCP_VARIABLES },
      },
    };
    return {
      files: [],
      env: {},
      turnArgv: (turn) => [input.program, ...codexTurnArgs(turn, options)],
      sessionIdFrom: CODEX.sessionIdFrom,
    };
  },
};
