/**
 * @teamkit/team-cli: the `team` command. The entry point also exposes the process host,
 * so other tools can run members as processes the way the CLI does.
 */
export type {
  AgentCommandValues,
  ProcessHost,
  ProcessHostOptions,
  ProcessMember,
  SessionCheck,
} from './process-host/index.js';
export {
  createProcessHost,
  expandAgentCommand,
  parseAgentCommand,
} from './process-host/index.js';
