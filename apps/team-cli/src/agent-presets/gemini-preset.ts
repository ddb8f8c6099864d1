import path from 'node:path';
import { renderMcpHostConfig } from '@teamkit/mcp';
import { type AgentPreset, sessionIdField } from './agent-preset.js';

/**
 * Gemini CLI (`gemini --prompt`), one process per turn. Edits go through
 * `--approval-mode auto_edit` (its file tools write only inside the workspace) and its
 * shell is offered for `git` only (`--allowed-tools run_shell_command(git)`). The team's
 * MCP server and the redaction allow-list that lets `TEAMKIT_TOKEN` reach it (Gemini CLI
 * drops variables named like secrets from a server's environment) go in a per-member
 * system settings file named by `GEMINI_CLI_SYSTEM_SETTINGS_PATH`, which Gemini CLI
 * merges over the user's settings (MCP servers are merged; the user's other settings stay).
 * `--skip-trust` lets it run in a worktree the user never marked trusted.
 */
export const geminiPreset: AgentPreset = {
  name: 'gemini',
  title: 'Gemini CLI',
  program: 'gemini',
  install: { packageName: '@google/gemini-cli', checkedVersion: '0.61.0' },
  mode: 'turns',
  mcpHost: 'gemini',
  prepare(input) {
    const settingsFile = path.join(input.folder, 'gemini-settings.json');
    const [command, ...args] = input.mcpCommand;
    const config = renderMcpHostConfig({
      host: 'gemini',
      ...(command === undefined ? {} : { command: [command, ...args] }),
    });
    const common = ['--output-format', 'json', '--skip-trust', '--approval-mode', 'auto_edit'];
    if (input.model !== undefined) common.push('--model', input.model);
    common.push('--allowed-tools', 'run_shell_command(git)');
    return {
      files: [{ path: settingsFile, text: config.text }],
      env: { GEMINI_CLI_SYSTEM_SETTINGS_PATH: settingsFile },
      turnArgv: ({ prompt, sessionId }) => [
        input.program,
        '--prompt',
        prompt,
        ...(sessionId === undefined ? [] : ['--resume', sessionId]),
        ...common,
      ],
      sessionIdFrom: sessionIdField,
    };
  },
};
