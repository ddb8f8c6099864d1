import type { AgentPreset } from './agent-preset.js';

/**
 * The scripted `teamkit-agent` of `@teamkit/test-harness`: a long-lived process that
 * reads its inbox with `team` and works the task list with fake edits. For `team demo`
 * and tests; a real repository gets fake commits from it.
 */
export const teamkitAgentPreset: AgentPreset = {
  name: 'teamkit-agent',
  title: 'Teamkit scripted agent',
  program: 'teamkit-agent',
  install: undefined,
  mode: 'long-lived',
  mcpHost: undefined,
  prepare(input) {
    return {
      files: [],
      env: {},
      turnArgv: () => [input.program],
      sessionIdFrom: () => undefined,
    };
  },
};
