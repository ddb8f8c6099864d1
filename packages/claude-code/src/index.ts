/**
 * @teamkit/claude-code: Claude Code's own agent teams, read from the files Claude Code
 * keeps under its config folder, and written to only where it is safe (a message, a
 * new task), under the same locks Claude Code takes. Every export is listed by name.
 */

export { CHECKED_CLAUDE_CODE_VERSIONS, isCheckedClaudeCodeVersion } from './checked-versions.js';
export type { ClaudeLockOptions, HeldClaudeLock } from './claude-lock.js';
export { CLAUDE_LOCK_STALE_MS, withClaudeLock } from './claude-lock.js';
export type { ClaudeTeamPaths } from './claude-paths.js';
export {
  assertClaudeTeamName,
  claudeFolders,
  claudeTeamPaths,
  inboxFileOf,
  isClaudeTeamName,
  resolveClaudeConfigDir,
  sanitizePathComponent,
  taskFileOf,
} from './claude-paths.js';
export type {
  ClaudeControlMessage,
  ClaudeFileProblem,
  ClaudeInbox,
  ClaudeInboxEntry,
  ClaudeTask,
  ClaudeTaskCounts,
  ClaudeTaskStatus,
  ClaudeTeamListing,
  ClaudeTeamLiveness,
  ClaudeTeamMember,
  ClaudeTeamStatus,
  ClaudeTeamSummary,
  ClaudeTeamView,
  ClaudeWarning,
} from './claude-team-view.js';
export type { CreateClaudeTaskInput, CreateClaudeTaskResult } from './create-claude-task.js';
export type { ClaudeCodeOptions, ClaudeTeamSource } from './create-claude-team-source.js';
export { createClaudeTeamSource } from './create-claude-team-source.js';
export type { ClaudeTeamWriter, ClaudeTeamWriterOptions } from './create-claude-team-writer.js';
export { createClaudeTeamWriter } from './create-claude-team-writer.js';
export { CLAUDE_TASK_STATUSES } from './parse-task.js';
export type { ClaudeLeadProcess } from './parse-team-config.js';
export type { ProcessProbe } from './process-probe.js';
export { createProcessProbe } from './process-probe.js';
export type { TornReadRetry } from './read-json-with-retry.js';
export type {
  SendClaudeMessageInput,
  SendClaudeMessageResult,
} from './send-claude-message.js';
export { DEFAULT_CLAUDE_SENDER, MAX_CLAUDE_MESSAGE_BYTES } from './send-claude-message.js';
export type {
  ClaudeTeamChange,
  ClaudeTeamWatch,
  ClaudeTeamWatchOptions,
} from './watch-claude-teams.js';
