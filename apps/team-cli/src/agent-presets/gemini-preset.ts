import { GEMINI_CLI, geminiCliTurnArgs } from '@teamkit/agent-clis';
import type { AgentPreset } from './agent-preset.js';

/** The shell commands a Gemini CLI member may run: git, and `team` for its team's tools. */
export const GEMINI_ALLOWED_TOOLS = ['run_shell_command(git)', 'run_shell_command(team)'] as const;

/**
 * Gemini CLI (`gemini --prompt`), one process per turn, with the flags of
 * `@teamkit/agent-clis` (`geminiCliTurnArgs`): `--approval-mode auto_edit` (its file tools
 * write only inside the workspace) and its shell offered for `git` and `team` only. Gemini
 * CLI takes MCP servers only from settings files: its system settings files are skipped
 * unless root owns them and every folder above them, a workspace file would land in the
 * checkout, and the user's own file is the user's. So a Gemini member reaches its team
 * through the `team` command on its PATH (Teamkit's own CLI; identity from the member's
 * environment and, should Gemini CLI withhold the secret from its shell, from the member's
 * recorded process it runs under).
 */
export const geminiPreset: AgentPreset = {
  name: 'gemini',
  title: GEMINI_CLI.title,
  program: GEMINI_CLI.program,
  install: GEMINI_CLI.install,
  mode: 'turns',
  mcpHost: undefined,
  prepare(input) {
    const options = {
      ...(input.model === undefined ? {} : { model: input.model }),
      allowedTools: GEMINI_ALLOWED_TOOLS,
    };
    return {
      files: [],
      env: {},
      turnArgv: (turn) => [input.program, ...geminiCliTurnArgs(turn, options)],
      sessionIdFrom: GEMINI_CLI.sessionIdFrom,
    };
  },
};
