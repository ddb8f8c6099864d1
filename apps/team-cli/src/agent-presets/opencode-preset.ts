import path from 'node:path';
import { renderMcpHostConfig } from '@teamkit/mcp';
import { type AgentPreset, parseJsonLines } from './agent-preset.js';

/**
 * OpenCode (`opencode run`), one process per turn. Teamkit's additions live in a
 * per-member config file named by `OPENCODE_CONFIG`, which OpenCode merges over the
 * user's global configuration (providers, keys and agents stay the user's): paths
 * outside the worktree are denied (`permission.external_directory = "deny"`: the model
 * gets an error and the turn goes on, where OpenCode's default `ask` would end a
 * non-interactive turn) and the team's MCP server is a `local` server. OpenCode passes its
 * whole environment to it, so the member's `TEAMKIT_*` identity reaches it.
 */
export const opencodePreset: AgentPreset = {
  name: 'opencode',
  title: 'OpenCode',
  program: 'opencode',
  install: { packageName: 'opencode-ai', checkedVersion: '1.18.33' },
  mode: 'turns',
  mcpHost: 'opencode',
  prepare(input) {
    const configFile = path.join(input.folder, 'opencode.json');
    const [command, ...args] = input.mcpCommand;
    const mcp = renderMcpHostConfig({
      host: 'opencode',
      ...(command === undefined ? {} : { command: [command, ...args] }),
    });
    const config = {
      $schema: 'https://opencode.ai/config.json',
      permission: { external_directory: 'deny' },
      mcp: { teamkit: mcp.entry.value },
    };
    const common = ['--format', 'json'];
    if (input.model !== undefined) common.push('--model', input.model);
    return {
      files: [{ path: configFile, text: `${JSON.stringify(config, null, 2)}\n` }],
      env: { OPENCODE_CONFIG: configFile },
      turnArgv: ({ prompt, sessionId }) => [
        input.program,
        'run',
        ...common,
        ...(sessionId === undefined ? [] : ['--session', sessionId]),
        '--',
        prompt,
      ],
      sessionIdFrom(stdout) {
        const event = parseJsonLines(stdout).find((line) => typeof line.sessionID === 'string');
        return event?.sessionID as string | undefined;
      },
    };
  },
};
