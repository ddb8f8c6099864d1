/**
 * @teamkit/team-core: harness-neutral primitives for teams of coding agents.
 * Every export is listed by name; adding a name here makes it public API.
 *
 * The root entry holds what adapters and users need: the errors, the run handle, the
 * runtime and the host contract, the member client, the mailbox and task list factories,
 * identity, the team library and settings, and the document types. The rest lives at
 * subpaths: `/errors`, `/schema` (zod schemas and name rules), `/storage` (stores, locks,
 * atomic files), `/state` (the run-state operations and their status machines),
 * `/registry` (the team library's parts), `/processes`, `/tmux`, `/worktree`, `/home` (the
 * home and its run ids, without loading the rest), `/tools`.
 */

// artifacts: a run's named Markdown deliverables
export { createRunArtifacts } from './artifacts/index.js';
// errors (also `@teamkit/team-core/errors`, which loads nothing else)
export type { TeamkitErrorCode, TeamkitErrorKind } from './errors/index.js';
export { isTeamkitError, TEAMKIT_ERROR_CODES, TeamkitError } from './errors/index.js';
// identity: who is calling, and what they may do
export type { RunOperation, TeamkitCaller } from './identity/index.js';
export {
  assertCallerIsUser,
  assertMayOperateOnRun,
  authenticateMember,
  identifyCaller,
  isSameFolder,
  issueMemberCredential,
  verifyMemberCredential,
} from './identity/index.js';
// mailbox
export type { Mailbox } from './mailbox/index.js';
export { createMailbox } from './mailbox/index.js';
// the team library and settings (their parts: `@teamkit/team-core/registry`)
export type { DoctorReport, SettingsValues, TeamLibrary } from './registry/index.js';
export {
  doctor,
  loadSettings,
  loadTeamLibrary,
  renderDoctorReport,
  resolveSettings,
  resolveStartableTeam,
  resolveTeam,
} from './registry/index.js';
// report: what a run produced
export { renderRunReport, summarizeRunTasks } from './report/index.js';
// run handle: one run's mailbox, tasks, state and events, bound once
export type {
  OpenRunOptions,
  RunEventsAccess,
  RunHandle,
  RunStateAccess,
} from './run-handle/index.js';
export { openRun } from './run-handle/index.js';
// runtime, the host contract and the member client
export type {
  DeliverInput,
  DeliveryOutcome,
  InterruptOutcome,
  MemberClient,
  MemberClientOptions,
  MemberStatusLine,
  MemberVocabulary,
  RunStatusReport,
  SessionMember,
  SpawnMemberInput,
  StartRunOptions,
  StartRunResult,
  StopRunOptions,
  StopRunReport,
  TeamHostCapability,
  TeamHostV1,
  TeamRuntime,
  TeamRuntimeOptions,
  TeamToolVocabulary,
  WaitingMarker,
} from './runtime/index.js';
export {
  assertTeamHost,
  collectRunStatus,
  createMemberClient,
  createTeamRuntime,
  findSessionMember,
  MEMBER_CLIENT_VOCABULARY,
  markWaiting,
  readWaitingMarker,
  renderMessages,
  renderTeamProtocol,
  requireHostCapability,
  settleRun,
  TEAM_HOST_SPECIFICATION_VERSION,
  TEAM_PROTOCOL_OPERATIONS,
} from './runtime/index.js';
// document types (their zod schemas: `@teamkit/team-core/schema`)
export type {
  Handoff,
  MemberStatus,
  Message,
  MessageKind,
  PermissionRequest,
  RunEvent,
  RunMember,
  RunStatus,
  RuntimeState,
  Task,
  TaskStatus,
  TeamMemberSpec,
  TeamSpec,
  TeamSpecInput,
} from './schema/index.js';
// task list
export type { TaskList } from './tasklist/index.js';
export {
  canTaskTransition,
  createTaskList,
  DONE_TASK_STATUSES,
  TASK_STATUS_TRANSITIONS,
} from './tasklist/index.js';
