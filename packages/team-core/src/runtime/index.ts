export type { TeamRuntime, TeamRuntimeOptions } from './create-team-runtime.js';
export { createTeamRuntime } from './create-team-runtime.js';
export type { DeliveryReport } from './internal/delivery.js';
export type { MemberVocabulary } from './internal/runtime-context.js';
export type { StartRunOptions, StartRunResult } from './internal/start-run.js';
export type { StopRunOptions, StopRunReport } from './internal/stop-run.js';
export type { TeardownProblem, TeardownStep } from './internal/teardown.js';
export type { MemberClient, MemberClientOptions, MemberMessageInput } from './member-client.js';
export { createMemberClient } from './member-client.js';
export { MEMBER_CLIENT_VOCABULARY } from './member-client-vocabulary.js';
export type { EvidenceClaim } from './member-goal.js';
export type { WaitingMarker } from './member-presence.js';
export { markWaiting, readWaitingMarker } from './member-presence.js';
export type { ShutdownRequestOutcome, ShutdownRequestRecord } from './member-shutdown.js';
export { EVERY_MEMBER } from './member-shutdown.js';
export { renderMessages } from './render-messages.js';
export type { MemberStatusLine, RunStatusOptions, RunStatusReport } from './run-status.js';
export { collectRunStatus } from './run-status.js';
export type { SessionMember } from './session-index.js';
export { findSessionMember } from './session-index.js';
export type { SettleRunOptions } from './settle-run.js';
export { settleRun } from './settle-run.js';
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
export type {
  RequiredTeamProtocolOperation,
  TeamProtocolInput,
  TeamProtocolOperation,
  TeamToolVocabulary,
} from './team-protocol.js';
export { renderTeamProtocol, TEAM_PROTOCOL_OPERATIONS } from './team-protocol.js';
