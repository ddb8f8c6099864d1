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
export type {
  AgentFile,
  BuiltinTeamId,
  ConfigSourceStatus,
  DefaultLead,
  DoctorReport,
  EffectiveTeam,
  EnsureGlobalConfigOptions,
  IgnoredRedLineSetting,
  InvalidSettingValue,
  LoadedConfigSource,
  LoadTeamLibraryOptions,
  MemberIdTransaction,
  ParsedMember,
  ParsedTeam,
  RegistryScope,
  RegistryWarning,
  RegistryWarningTopic,
  ResolvedSetting,
  ResolvedSettings,
  SettingDefinition,
  SettingKey,
  SettingSource,
  SettingsLayer,
  SettingsValues,
  ShadowedTeam,
  SkippedTeam,
  TeamLibrary,
  TeamLibrarySource,
  TeamRegistration,
  UnknownSettingKey,
  ValidatedTeam,
} from './registry/index.js';
export {
  AGENT_FILE_SUFFIX,
  BUILTIN_TEAM_IDS,
  builtinTeamFolder,
  CONFIG_FILE_NAME,
  createDoctorReport,
  doctor,
  ensureGlobalConfig,
  FLAT_TEAM_FILE,
  interpretConfigSource,
  isBuiltinTeamId,
  loadTeamLibrary,
  MemberIdRegistry,
  parseAgentFile,
  parseTeamFolder,
  projectConfigPath,
  readConfigSource,
  renderDoctorReport,
  resolveSettings,
  resolveTeam,
  SETTINGS,
  TEAM_DOC_FILE,
  TEAM_MANIFEST_FILE,
  TEAM_POLICY_FILE,
  TEAMS_PREFIX,
  TeamManifestSchema,
  validateTeam,
} from './registry/index.js';

// state (issue: run state)

// worktree (issue: worktrees)

// tmux (issue: tmux layouts)

// runtime (issue: runtime and host contract)
