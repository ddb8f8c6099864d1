export type {
  DeliveryReport,
  StartRunOptions,
  StartRunResult,
  StopRunReport,
  TeamRuntime,
  TeamRuntimeOptions,
} from './create-team-runtime.js';
export { createTeamRuntime } from './create-team-runtime.js';
export type { MemberClient, MemberClientOptions, MemberMessageInput } from './member-client.js';
export { createMemberClient } from './member-client.js';
export { renderMessages } from './render-messages.js';
export type { MemberStatusLine, RunStatusOptions, RunStatusReport } from './run-status.js';
export { collectRunStatus } from './run-status.js';
export type {
  DeliverInput,
  DeliveryOutcome,
  InterruptOutcome,
  SpawnMemberInput,
  TeamHostCapability,
  TeamHostV1,
} from './team-host.js';
export {
  assertTeamHost,
  requireHostCapability,
  TEAM_HOST_SPECIFICATION_VERSION,
} from './team-host.js';
export type { TeamProtocolChannel, TeamProtocolInput } from './team-protocol.js';
export { renderTeamProtocol } from './team-protocol.js';
