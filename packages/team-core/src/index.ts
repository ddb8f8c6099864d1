/**
 * @teamkit/team-core: harness-neutral primitives for teams of coding agents.
 * Every export is listed by name; adding a name here makes it public API.
 */

export type { TeamkitErrorCode, TeamkitErrorKind, TeamkitErrorOptions } from './errors/index.js';
// errors
export { isTeamkitError, TEAMKIT_ERROR_CODES, TeamkitError } from './errors/index.js';
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

// mailbox (issue: mailbox and task list)

// tasklist (issue: mailbox and task list)

// registry (issue: team registry)

// state (issue: run state)
export type {
  AddMemberInput,
  CreateRunStateInput,
  LivenessProbe,
  MemberResumeReport,
  MemberTransitionOptions,
  PermissionDecision,
  PermissionOptions,
  PermissionRequestInput,
  RecoveryActions,
  ResumeAllReport,
  ResumeOptions,
  RunListing,
  RunResumeReport,
  RunStateMutation,
  SpawnCheck,
  StartMemberInput,
  StateOptions,
  SweepRunsOptions,
  SweepRunsReport,
  TransitionOptions,
} from './state/index.js';
export {
  addMember,
  answerShutdown,
  assertCanSend,
  assertCanSpawn,
  assertLegalStateChange,
  assertMemberTransition,
  assertRunTransition,
  assertWithinWallClock,
  canTransitionMember,
  canTransitionRun,
  countParallelMembers,
  createRunState,
  decidePermission,
  findMember,
  isPathAllowed,
  listRuns,
  MEMBER_TRANSITIONS,
  RUN_TRANSITIONS,
  readRunState,
  recordMessageSent,
  recordTurn,
  requestPermission,
  requestShutdown,
  resumeAll,
  resumeRun,
  startMember,
  sweepRuns,
  TERMINAL_RUN_STATUSES,
  transitionMember,
  transitionRun,
  updateRunState,
  WORKING_RUN_STATUSES,
} from './state/index.js';

// worktree (issue: worktrees)
export type {
  CreateMemberWorktreeInput,
  GitResult,
  GitRunner,
  GitRunnerOptions,
  GitRunOptions,
  ListedWorktree,
  MemberWorktree,
  MemberWorktreeTarget,
  OrphanWorktree,
  OrphanWorktreeOptions,
  PruneOrphansOptions,
  PruneOrphansReport,
  RemoveMemberWorktreeInput,
  RemoveMemberWorktreeReport,
  UnsavedCommit,
  UnsavedWork,
} from './worktree/index.js';
export {
  createGitRunner,
  createMemberWorktree,
  findOrphanWorktrees,
  findUnsavedWork,
  listGitWorktrees,
  memberBranchName,
  pruneOrphans,
  removeMemberWorktree,
  resolveRepoRoot,
} from './worktree/index.js';

// tmux (issue: tmux layouts)

// runtime (issue: runtime and host contract)
