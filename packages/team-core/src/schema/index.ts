export type { Artifact } from './artifact.js';
export { ARTIFACT_NAME_PATTERN, ArtifactNameSchema, ArtifactSchema } from './artifact.js';
export type { ConfigSource, TeamRegistrationEntry } from './config-source.js';
export {
  BuiltinTeamRegistrationSchema,
  ConfigSourceSchema,
  PathTeamRegistrationSchema,
  TeamRegistrationEntrySchema,
} from './config-source.js';
export type { Handoff, MemberPresence } from './member-presence.js';
export { HandoffSchema, MemberPresenceSchema } from './member-presence.js';
export type { Message, MessageKind, MessageReference } from './message.js';
export { MESSAGE_KINDS, MessageReferenceSchema, MessageSchema } from './message.js';
export {
  MemberNameSchema,
  NAME_PATTERN,
  RESERVED_MEMBER_NAMES,
  RunIdSchema,
  TaskIdSchema,
  TEAMKIT_SENDER,
  TeamNameSchema,
  TimestampSchema,
  USER_PARTICIPANT,
} from './names.js';
export type { RunEvent } from './run-event.js';
export { RunEventSchema } from './run-event.js';
export type {
  AcceptanceCriterion,
  CriterionEvidence,
  EvidenceKind,
  RunGoal,
} from './run-goal.js';
export {
  AcceptanceCriterionSchema,
  CriterionEvidenceSchema,
  CriterionIdSchema,
  CriterionWaiverSchema,
  EVIDENCE_KINDS,
  RunGoalSchema,
} from './run-goal.js';
export { isRunId, RUN_ID_PATTERN } from './run-id-pattern.js';
export type { MergedTask, RunMerge, RunMerges } from './run-merges.js';
export { MergedTaskSchema, RunMergeSchema, RunMergesSchema } from './run-merges.js';
export type {
  MemberStatus,
  PermissionRequest,
  RunMember,
  RunStatus,
  RuntimeState,
  ShutdownRequest,
  TmuxLayout,
} from './runtime-state.js';
export {
  MEMBER_STATUSES,
  PermissionRequestSchema,
  RUN_STATUSES,
  RunMemberSchema,
  RuntimeStateSchema,
  ShutdownRequestSchema,
  TmuxLayoutSchema,
} from './runtime-state.js';
export type { Task, TaskStatus, TaskWork } from './task.js';
export { TASK_STATUSES, TaskSchema, TaskWorkSchema } from './task.js';
export type {
  RunBounds,
  TeamMemberSpec,
  TeamPolicy,
  TeamSpec,
  TeamSpecInput,
} from './team-spec.js';
export {
  AgentPresetNameSchema,
  PermissionActionSchema,
  RunBoundsSchema,
  TeamMemberSpecSchema,
  TeamPolicySchema,
  TeamSpecSchema,
} from './team-spec.js';
