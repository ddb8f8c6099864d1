/**
 * @teamkit/team-core/tools: every team tool defined once (name, description, zod input
 * and output schemas, the roles that may call it, a handler over the member client), for
 * adapters to project onto their hosts: the OpenCode plugin's `team_*` tools and the MCP
 * server's tools. A subpath of its own, so the root entry does not load it.
 */
export { goalOutput, goalText } from './goal-tools.js';
export { MAX_MAIL_WAIT_SECONDS, SEND_MESSAGE_KINDS } from './message-tools.js';
export type { TeamToolAnswer } from './run-team-tool.js';
export { runTeamTool } from './run-team-tool.js';
export { TASK_UPDATE_STATUSES } from './task-tools.js';
export type { StartableTeamLine, TeamRunControl } from './team-run-control.js';
export { startableTeams } from './team-run-control.js';
export type { TeamRunView, TeamRunViewOptions } from './team-run-view.js';
export { createTeamRunView } from './team-run-view.js';
export type {
  AnyTeamTool,
  TeamTool,
  TeamToolCaller,
  TeamToolContext,
  TeamToolNamer,
  TeamToolProtocolWords,
  TeamToolRole,
} from './team-tool.js';
export { defineTeamTool } from './team-tool.js';
export type { TeamToolName, TeamToolNamed, TeamToolProfile } from './team-tools.js';
export {
  describeTeamTool,
  findTeamTool,
  TEAM_TOOL_PROFILES,
  TEAM_TOOLS,
  teamToolsOfProfile,
} from './team-tools.js';
export { assertMayCallTool, callerRoles, mayCallTool } from './tool-access.js';
export type { ToolMessage, ToolProblem, ToolTask } from './tool-results.js';
export {
  messagesText,
  ToolMessageSchema,
  ToolProblemSchema,
  ToolTaskSchema,
  taskLine,
  toolMessage,
} from './tool-results.js';
export { createToolVocabulary } from './tool-vocabulary.js';
