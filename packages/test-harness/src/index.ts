/**
 * @teamkit/test-harness: tools for testing Teamkit and its host integrations. This root
 * entry never loads vitest; the conformance suite lives at `@teamkit/test-harness/conformance`.
 * Every export is listed by name; adding a name here makes it public API.
 */

// agent CLIs driven against the mock model server
export type {
  AgentCliEnvironment,
  AgentCliEnvironmentOptions,
  AgentCliLocation,
  AgentCliMcpServer,
  AgentCliName,
  AgentCliRun,
  FindAgentCliOptions,
  FoundAgentCli,
  MissingAgentCli,
  RunAgentCliOptions,
} from './agent-cli/index.js';
export {
  AGENT_CLI_NAMES,
  AGENT_CLI_PACKAGES,
  createAgentCliEnvironment,
  describeAgentCliRun,
  findAgentCli,
  killRunningAgentClis,
  REQUIRE_PROGRAMS_ENV,
  runAgentCli,
} from './agent-cli/index.js';
// mock model server
export type {
  ChatCompletionRequestBody,
  ChatMessage,
  ChatToolCall,
  MarkerScriptOptions,
  MockApiFlavour,
  MockConversationItem,
  MockModelRequest,
  MockModelScript,
  MockModelServer,
  MockModelServerOptions,
  MockScriptStep,
  MockToolCall,
  MockTurn,
  MockTurnError,
  MockTurnResolver,
  ToolResultMessage,
} from './mock-model-server/index.js';
export {
  createMarkerScript,
  findLastToolResult,
  findLastUserText,
  findToolResults,
  findUserTexts,
  messageText,
  readConversation,
  requestsWithMarker,
  startMockModelServer,
} from './mock-model-server/index.js';
// a private nats-server for tests and benchmarks of the NATS store
export type {
  FindNatsServerOptions,
  NatsServerLocation,
  NatsServerProcess,
  StartNatsServerOptions,
} from './nats-server/index.js';
export { findNatsServer, freeLoopbackPort, startNatsServer } from './nats-server/index.js';
// several "machines" on one box (network namespaces) and a NATS cluster across them
export type {
  ClusterNode,
  FindNetworkNamespacesOptions,
  LabMachine,
  LabRun,
  NatsCluster,
  NetworkLab,
  NetworkNamespacesCheck,
  StartNatsClusterOptions,
} from './network-lab/index.js';
export {
  createNetworkLab,
  findNetworkNamespaces,
  startNatsCluster,
} from './network-lab/index.js';
// scripted agents
export type {
  AgentActions,
  AgentEnvironment,
  LeadOutcome,
  MailFilter,
  PlannedTask,
} from './scripted-agents/index.js';
export {
  CODING_TEAM_PLAN,
  codingTeamScripts,
  createAgentActions,
  defineAgent,
  inboxPollingEnvironment,
  playLead,
  playWorker,
  testHostEnvironment,
} from './scripted-agents/index.js';
// test host, fixture
export type { FixtureGitOptions, TeamFixture, TeamFixtureOptions } from './team-fixture/index.js';
export { createTeamFixture } from './team-fixture/index.js';
export type {
  AgentScript,
  IdleHandler,
  NextDeliveryOptions,
  ScriptedAgentContext,
  SettledOptions,
  TestHost,
  TestHostCall,
  TestHostCapabilities,
  TestHostOptions,
  TestHostScriptError,
} from './test-host/index.js';
export { createTestHost } from './test-host/index.js';
