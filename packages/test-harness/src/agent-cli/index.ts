export type {
  AgentCliEnvironment,
  AgentCliEnvironmentOptions,
  AgentCliMcpServer,
} from './agent-cli-environment.js';
export type { AgentCliName } from './agent-cli-name.js';
export { AGENT_CLI_NAMES, AGENT_CLI_PACKAGES } from './agent-cli-name.js';
export { createAgentCliEnvironment } from './create-agent-cli-environment.js';
export type {
  AgentCliLocation,
  FindAgentCliOptions,
  FoundAgentCli,
  MissingAgentCli,
} from './find-agent-cli.js';
export { findAgentCli, REQUIRE_PROGRAMS_ENV } from './find-agent-cli.js';
export type { AgentCliRun, RunAgentCliOptions } from './run-agent-cli.js';
export { describeAgentCliRun, killRunningAgentClis, runAgentCli } from './run-agent-cli.js';
