import type { TeamToolVocabulary } from '@teamkit/team-core';

/**
 * How members in OpenCode reach their team: the plugin's `team_*` tools. The runtime and
 * the agent projection put these words into the team protocol of every prompt, so the
 * names here must be the names the tools are registered under.
 */
export const OPENCODE_TOOL_VOCABULARY: TeamToolVocabulary = {
  readMail: 'the `team_read_messages` tool',
  sendMessage: 'the `team_send_message` tool',
  listReadyTasks: 'the `team_task_list` tool with `ready: true`',
  claimTask: 'the `team_task_claim` tool, then `team_task_update` with status `in_progress`',
  completeTask: '`team_task_update` with status `completed`',
  submitForReview: '`team_task_update` with status `in_review`',
  createTask: 'the `team_task_create` tool (with `blockedBy` for dependencies)',
  approveTask: '`team_task_update` with status `approved`',
  requestChanges: '`team_task_update` with status `pending` and a `note`',
  requestShutdown: 'the `team_shutdown_request` tool',
  approveShutdown: 'the `team_approve_shutdown` tool',
  rejectShutdown: 'the `team_reject_shutdown` tool',
};
