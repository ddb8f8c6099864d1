import { TeamkitError } from '../errors/index.js';
import { artifactGetTool, artifactListTool, artifactPutTool } from './artifact-tools.js';
import { criterionEvidenceTool, criterionWaiveTool, goalSetTool } from './goal-tools.js';
import { runMergeTool, runReportTool } from './integration-tools.js';
import {
  acknowledgeTool,
  readMessagesTool,
  sendMessageTool,
  waitForMailTool,
} from './message-tools.js';
import {
  permissionDecideTool,
  permissionListTool,
  permissionRequestTool,
} from './permission-tools.js';
import {
  taskApproveTool,
  taskRequestChangesTool,
  taskSubmitForReviewTool,
} from './review-tools.js';
import { createTool, deleteTool, listTool, statusTool } from './run-tools.js';
import { approveShutdownTool, rejectShutdownTool, shutdownRequestTool } from './shutdown-tools.js';
import {
  taskClaimTool,
  taskCreateTool,
  taskGetTool,
  taskListTool,
  taskUpdateTool,
} from './task-tools.js';
import type { AnyTeamTool } from './team-tool.js';

/** Every team tool by its base name, with its own schema types. */
const TOOLS_BY_NAME = {
  status: statusTool,
  read_messages: readMessagesTool,
  acknowledge: acknowledgeTool,
  send_message: sendMessageTool,
  wait_for_mail: waitForMailTool,
  task_list: taskListTool,
  task_get: taskGetTool,
  task_create: taskCreateTool,
  task_claim: taskClaimTool,
  task_submit_for_review: taskSubmitForReviewTool,
  task_approve: taskApproveTool,
  task_request_changes: taskRequestChangesTool,
  task_update: taskUpdateTool,
  approve_shutdown: approveShutdownTool,
  reject_shutdown: rejectShutdownTool,
  permission_request: permissionRequestTool,
  permission_list: permissionListTool,
  artifact_put: artifactPutTool,
  artifact_get: artifactGetTool,
  artifact_list: artifactListTool,
  run_report: runReportTool,
  list: listTool,
  create: createTool,
  delete: deleteTool,
  shutdown_request: shutdownRequestTool,
  permission_decide: permissionDecideTool,
  goal_set: goalSetTool,
  criterion_evidence: criterionEvidenceTool,
  criterion_waive: criterionWaiveTool,
  run_merge: runMergeTool,
} as const;

/** The base name of a team tool (`send_message`). */
export type TeamToolName = keyof typeof TOOLS_BY_NAME;
/** The tool of that base name, with its own input and output types. */
export type TeamToolNamed<Name extends TeamToolName> = (typeof TOOLS_BY_NAME)[Name];

/**
 * Every team tool, in the order hosts list them. Where two tools perform the same
 * protocol operation, the earlier one names it in the prompt (the review tools before
 * `task_update`).
 */
export const TEAM_TOOLS: readonly AnyTeamTool[] = Object.values(TOOLS_BY_NAME);

/** The tool sets a server can offer, smallest first; `member` is the default. */
export const TEAM_TOOL_PROFILES = ['minimal', 'member', 'lead', 'all'] as const;
/** One tool set. */
export type TeamToolProfile = (typeof TEAM_TOOL_PROFILES)[number];

const MINIMAL = [
  'status',
  'read_messages',
  'acknowledge',
  'send_message',
  'wait_for_mail',
  'task_list',
  'task_get',
  'task_claim',
  'task_update',
];
const MEMBER = [
  ...MINIMAL,
  'task_create',
  'task_submit_for_review',
  'task_approve',
  'task_request_changes',
  'approve_shutdown',
  'reject_shutdown',
  'permission_request',
  'permission_list',
  'artifact_put',
  'artifact_get',
  'artifact_list',
  'run_report',
];
const LEAD = [
  ...MEMBER,
  'list',
  'create',
  'delete',
  'shutdown_request',
  'permission_decide',
  'goal_set',
  'criterion_evidence',
  'criterion_waive',
  'run_merge',
];

const PROFILE_TOOLS: Record<TeamToolProfile, readonly string[]> = {
  minimal: MINIMAL,
  member: MEMBER,
  lead: LEAD,
  all: TEAM_TOOLS.map((tool) => tool.name),
};

/** The tools of a profile, in {@link TEAM_TOOLS} order (before filtering by the caller's roles). */
export function teamToolsOfProfile(profile: TeamToolProfile): AnyTeamTool[] {
  const names = PROFILE_TOOLS[profile];
  if (names === undefined) {
    throw new TeamkitError(
      'INVALID_INPUT',
      `Unknown tool profile "${String(profile)}": use ${TEAM_TOOL_PROFILES.join(', ')}.`,
      { details: { profile } },
    );
  }
  return TEAM_TOOLS.filter((tool) => names.includes(tool.name));
}

/** The tool of that base name (typed when the name is a literal), or `undefined`. */
export function findTeamTool<Name extends TeamToolName>(name: Name): TeamToolNamed<Name>;
export function findTeamTool(name: string): AnyTeamTool | undefined;
export function findTeamTool(name: string): AnyTeamTool | undefined {
  return Object.hasOwn(TOOLS_BY_NAME, name) ? TOOLS_BY_NAME[name as TeamToolName] : undefined;
}

/** A tool's description with every `{tool}` mark replaced by the adapter's name for it. */
export function describeTeamTool(tool: AnyTeamTool, name: (tool: string) => string): string {
  return tool.description.replace(/\{([a-z_]+)\}/g, (mark, base: string) =>
    findTeamTool(base) === undefined ? mark : name(base),
  );
}
