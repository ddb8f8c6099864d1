import path from 'node:path';
import {
  OPENCODE,
  OPENCODE_VARIABLES,
  opencodeConfig,
  opencodeTurnArgs,
} from '@teamkit/agent-clis';
import type { AgentPreset } from './agent-preset.js';

/**
 * OpenCode (`opencode run`), one process per turn, with the flags and configuration of
 * `@teamkit/agent-clis`. Teamkit's additions (`opencodeConfig`: paths outside the worktree
 * denied, the team's MCP server as a `local` server) live in a per-member config file named
 * by `OPENCODE_CONFIG`, which OpenCode merges over the user's global configuration
 * (providers, keys and agents stay the user's). OpenCode passes its whole environment to
 * the server, so the member's `TEAMKIT_*` identity reaches it.
 */
export const opencodePreset: AgentPreset = {
  name: 'opencode',
  title: OPENCODE.title,
  program: OPENCODE.program,
  install: OPENCODE.install,
  mode: 'turns',
  mcpHost: 'opencode',
  prepare(input) {
    const configFile = path.join(input.folder, 'opencode.json');
    const [command = process.execPath, ...args] = input.mcpCommand;
    const config = opencodeConfig({
      teamkit: { command, args: [...args, '--host', 'opencode'] },
    });
    const options = input.model === undefined ? {} : { model: input.model };
    return {
      files: [{ path: configFile, text: `${JSON.stringify(config, null, 2)}\n` }],
      env: { [OPENCODE_VARIABLES.config]: configFile },
      turnArgv: (turn) => [input.program, ...opencodeTurnArgs(turn, options)],
      sessionIdFrom: OPENCODE.sessionIdFrom,
    };
  },
};
