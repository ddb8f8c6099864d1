import path from 'node:path';
import {
  CLAUDE_CODE,
  claudeCodeMcpConfig,
  claudeCodeMcpTools,
  claudeCodeTurnArgs,
} from '@teamkit/agent-clis';
import type { AgentPreset } from './agent-preset.js';

/** The shell commands a Claude Code member may run without a prompt, besides plain edits. */
export const CLAUDE_ALLOWED_TOOLS = [
  claudeCodeMcpTools('teamkit'),
  'Bash(git:*)',
  'Bash(team:*)',
] as const;

/**
 * Claude Code (`claude -p`), one process per turn, with the flags of `@teamkit/agent-clis`
 * (`claudeCodeTurnArgs`). Edits go through `--permission-mode acceptEdits` plus `git` and
 * `team` commands and the team's MCP tools by `--allowedTools`. The team's MCP server comes
 * from a per-member `--mcp-config` file beside the run, added to the user's own servers
 * (no `--strict-mcp-config`: see `claudeCodeTurnArgs` for why); Claude Code passes its
 * whole environment, so the member's `TEAMKIT_*` identity reaches it.
 */
export const claudePreset: AgentPreset = {
  name: 'claude',
  title: CLAUDE_CODE.title,
  program: CLAUDE_CODE.program,
  install: CLAUDE_CODE.install,
  mode: 'turns',
  mcpHost: 'claude',
  prepare(input) {
    const mcpConfigFile = path.join(input.folder, 'claude-mcp.json');
    const [command = process.execPath, ...args] = input.mcpCommand;
    const options = {
      ...(input.model === undefined ? {} : { model: input.model }),
      mcpConfigFile,
      allowedTools: CLAUDE_ALLOWED_TOOLS,
    };
    return {
      files: [
        {
          path: mcpConfigFile,
          text: claudeCodeMcpConfig({ teamkit: { command, args: [...args, '--host', 'claude'] } }),
        },
      ],
      env: {},
      turnArgv: (turn) => [input.program, ...claudeCodeTurnArgs(turn, options)],
      sessionIdFrom: CLAUDE_CODE.sessionIdFrom,
    };
  },
};
