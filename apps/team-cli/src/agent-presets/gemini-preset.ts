import { type AgentPreset, sessionIdField } from './agent-preset.js';

/** The shell commands a Gemini CLI member may run: git, and `team` for its team's tools. */
export const GEMINI_ALLOWED_TOOLS = ['run_shell_command(git)', 'run_shell_command(team)'] as const;

/**
 * Gemini CLI (`gemini --prompt`), one process per turn. Edits go through
 * `--approval-mode auto_edit` (its file tools write only inside the workspace) and its
 * shell is offered for `git` and `team` only (`--allowed-tools`). Gemini CLI takes MCP
 * servers only from settings files: its system settings files are skipped unless root
 * owns them and every folder above them, a workspace file would land in the checkout, and
 * the user's own file is the user's. So a Gemini member reaches its team through the
 * `team` command on its PATH (Teamkit's own CLI; identity from the member's environment
 * and, should Gemini CLI withhold the secret from its shell, from the member's recorded
 * process it runs under). `--skip-trust` lets it work in a worktree the user never
 * marked trusted.
 */
export const geminiPreset: AgentPreset = {
  name: 'gemini',
  title: 'Gemini CLI',
  program: 'gemini',
  install: { packageName: '@google/gemini-cli', checkedVersion: '0.61.0' },
  mode: 'turns',
  mcpHost: undefined,
  prepare(input) {
    const common = ['--output-format', 'json', '--skip-trust', '--approval-mode', 'auto_edit'];
    if (input.model !== undefined) common.push('--model', input.model);
    // One flag per tool: Gemini CLI reads a second value after one flag as the prompt.
    for (const tool of GEMINI_ALLOWED_TOOLS) common.push('--allowed-tools', tool);
    return {
      files: [],
      env: {},
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
