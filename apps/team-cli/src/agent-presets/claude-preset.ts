import path from 'node:path';
import { renderMcpHostConfig } from '@teamkit/mcp';
import type { AgentPreset } from './agent-preset.js';
import { sessionIdField } from './agent-preset.js';

/** The shell commands a Claude Code member may run without a prompt, besides plain edits. */
export const CLAUDE_ALLOWED_TOOLS = ['mcp__teamkit', 'Bash(git:*)', 'Bash(team:*)'] as const;

/**
 * Claude Code (`claude -p`), one process per turn. Edits go through
 * `--permission-mode acceptEdits` (file edits and plain shell commands inside the working
 * folder, nothing outside it) plus `git` and `team` commands and the team's MCP tools by
 * `--allowedTools`. The team's MCP server comes from a per-member `--mcp-config` file
 * beside the run, added to the user's own servers (not `--strict-mcp-config`); Claude Code
 * passes its whole environment, so the member's `TEAMKIT_*` identity reaches it.
 */
export const claudePreset: AgentPreset = {
  name: 'claude',
  title: 'Claude Code',
  program: 'claude',
  install: { packageName: '@anthropic-ai/claude-code', checkedVersion: '2.1.328' },
  mode: 'turns',
  mcpHost: 'claude',
  prepare(input) {
    const mcpConfig = path.join(input.folder, 'claude-mcp.json');
    const [command, ...args] = input.mcpCommand;
    const config = renderMcpHostConfig({
      host: 'claude',
      ...(command === undefined ? {} : { command: [command, ...args] }),
    });
    const common = ['--output-format', 'json', '--permission-mode', 'acceptEdits'];
    if (input.model !== undefined) common.push('--model', input.model);
    common.push('--mcp-config', mcpConfig);
    // `--allowedTools` takes several values, so it comes last and the prompt first.
    common.push('--allowedTools', ...CLAUDE_ALLOWED_TOOLS);
    return {
      files: [{ path: mcpConfig, text: config.text }],
      env: {},
      turnArgv: ({ prompt, sessionId }) => [
        input.program,
        '-p',
        prompt,
        ...(sessionId === undefined ? [] : ['--resume', sessionId]),
        ...common,
      ],
      sessionIdFrom: sessionIdField,
    };
  },
};
