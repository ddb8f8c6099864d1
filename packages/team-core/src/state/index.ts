export { assertLegalStateChange } from './legal-state-change.js';
export { ELSEWHERE, placeMembers } from './member-placement.js';
export type {
  PermissionDecision,
  PermissionOptions,
  PermissionRequestInput,
} from './permission-requests.js';
export { decidePermission, isPathAllowed, requestPermission } from './permission-requests.js';
export type {
  LivenessProbe,
  MemberResumeReport,
  OtherMachinesLiveness,
  RecoveryActions,
  ResumeAllReport,
  ResumeOptions,
  RunResumeReport,
} from './resume-run.js';
export { resumeAll, resumeRun } from './resume-run.js';
export type { AddMemberInput, SpawnCheck, StartMemberInput } from './run-bounds.js';
export {
  addMember,
  assertCanSpawn,
  assertCanTakeTurn,
  assertWithinWallClock,
  recordTurn,
  startMember,
} from './run-bounds.js';
export type {
  CompleteRunResult,
  CompletionDecision,
  CompletionFacts,
} from './run-completion.js';
export { completeRun, decideRunCompletion, unmetReason } from './run-completion.js';
export type { EvidenceInput, RunGoalInput } from './run-goal.js';
export {
  addCriteria,
  attachEvidence,
  findCriterion,
  setRunGoal,
  unmetCriteria,
  waiveCriterion,
} from './run-goal.js';
export { findLead, requireLead } from './run-lead.js';
export {
  countParallelMembers,
  findMember,
  findParticipant,
  hasLeadRights,
  isActiveMember,
  userParticipant,
} from './run-members.js';
export type {
  CreateRunStateInput,
  MemberTransitionOptions,
  RunListing,
  RunStateMutation,
  TransitionOptions,
} from './run-state-store.js';
export {
  createRunState,
  listRuns,
  readRunState,
  transitionMember,
  transitionRun,
  updateRunState,
} from './run-state-store.js';
export type { ShutdownRequestOptions } from './shutdown-requests.js';
export { answerShutdown, openShutdownRequest, requestShutdown } from './shutdown-requests.js';
export type { StateOptions } from './state-options.js';
export {
  assertMemberTransition,
  assertRunTransition,
  canTransitionMember,
  canTransitionRun,
  FINISHED_RUN_STATUSES,
  MEMBER_TRANSITIONS,
  RUN_TRANSITIONS,
  TERMINAL_RUN_STATUSES,
  WORKING_RUN_STATUSES,
  WRITABLE_RUN_STATUSES,
} from './status-machines.js';
export type { SweepRunsOptions, SweepRunsReport } from './sweep-runs.js';
export { sweepRuns } from './sweep-runs.js';
