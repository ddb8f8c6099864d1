/**
 * @teamkit/team-core: harness-neutral primitives for teams of coding agents.
 * Every export is listed by name; adding a name here makes it public API.
 */

export type { TeamkitErrorCode, TeamkitErrorKind, TeamkitErrorOptions } from './errors/index.js';
// errors
export { isTeamkitError, TEAMKIT_ERROR_CODES, TeamkitError } from './errors/index.js';
// mailbox (issue: mailbox and task list)
export type {
  AcknowledgeOutcome,
  InboxWatchOptions,
  Mailbox,
  MailboxOptions,
  MoveOutcome,
  RecipientRefusal,
  ReclaimOutcome,
  SendMessageInput,
  SendMessageResult,
  UnreadListing,
} from './mailbox/index.js';
export { createMailbox } from './mailbox/index.js';
export type {
  ConfigSource,
  MemberStatus,
  Message,
  MessageKind,
  MessageReference,
  PermissionRequest,
  RunBounds,
  RunEvent,
  RunMember,
  RunStatus,
  RuntimeState,
  ShutdownRequest,
  Task,
  TaskStatus,
  TeamMemberSpec,
  TeamPolicy,
  TeamRegistrationEntry,
  TeamSpec,
  TeamSpecInput,
  TmuxLayout,
} from './schema/index.js';
// schema
export {
  BuiltinTeamRegistrationSchema,
  ConfigSourceSchema,
  MEMBER_STATUSES,
  MESSAGE_KINDS,
  MemberNameSchema,
  MessageReferenceSchema,
  MessageSchema,
  NAME_PATTERN,
  PathTeamRegistrationSchema,
  PermissionActionSchema,
  PermissionRequestSchema,
  RUN_STATUSES,
  RunBoundsSchema,
  RunEventSchema,
  RunIdSchema,
  RunMemberSchema,
  RuntimeStateSchema,
  ShutdownRequestSchema,
  TASK_STATUSES,
  TaskIdSchema,
  TaskSchema,
  TeamMemberSpecSchema,
  TeamNameSchema,
  TeamPolicySchema,
  TeamRegistrationEntrySchema,
  TeamSpecSchema,
  TimestampSchema,
  TmuxLayoutSchema,
} from './schema/index.js';
export type {
  DocumentProblem,
  FileStoreOptions,
  HeldLock,
  LockOptions,
  RunEventInput,
  RunPaths,
  StoreEntryInfo,
  TeamkitStore,
} from './storage/index.js';
// storage
export {
  acquireLock,
  appendRunEvent,
  assertRunId,
  assertSafeSegment,
  containedPath,
  createFileAtomically,
  createFileStore,
  DOCUMENT_VERSION,
  expandHome,
  fsyncDirectory,
  lockFolderOf,
  parseDocument,
  readDocument,
  readRunEvents,
  removeTreeWithRetry,
  renameWithRetry,
  resolveContainedRealPath,
  resolveTeamkitHome,
  retryWhileBusy,
  runPaths,
  serializeDocument,
  toDocumentProblem,
  unlinkWithRetry,
  withLock,
  writeFileAtomically,
} from './storage/index.js';

// tasklist (issue: mailbox and task list)
export type {
  CreateTaskInput,
  StatusChangeOptions,
  TaskDetailsPatch,
  TaskFilter,
  TaskList,
  TaskListing,
  TaskListOptions,
} from './tasklist/index.js';
export {
  assertTaskTransition,
  canTaskTransition,
  createTaskList,
  DONE_TASK_STATUSES,
  TASK_STATUS_TRANSITIONS,
} from './tasklist/index.js';

// registry (issue: team registry)

// state (issue: run state)

// worktree (issue: worktrees)

// tmux (issue: tmux layouts)

// runtime (issue: runtime and host contract)
