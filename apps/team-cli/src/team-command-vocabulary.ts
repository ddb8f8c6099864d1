import type { TeamToolVocabulary } from '@teamkit/team-core';

/**
 * How members started by the `team` CLI reach their team: the `team` commands, which act
 * as the member named by `TEAMKIT_MEMBER`. The runtime puts these words into the team
 * protocol of every member's prompt.
 */
export const TEAM_COMMAND_VOCABULARY: TeamToolVocabulary = {
  readMail: '`team inbox --ack` (or `team inbox --wait 60 --ack` to wait for mail)',
  sendMessage: '`team send --to <name> "<text>"`',
  listReadyTasks: '`team task list --ready`',
  claimTask: '`team task claim <id>` then `team task start <id>`',
  completeTask: '`team task complete <id>`',
  submitForReview: '`team task review <id>`',
  createTask: '`team task create "<subject>" --description "<text>" [--blocked-by <id>]`',
  approveTask: '`team task approve <id>`',
  requestChanges: '`team task request-changes <id> --note "<what to change>"`',
  requestShutdown: "`team shutdown request <name>` (or `team shutdown request '*'` for everyone)",
  approveShutdown: '`team shutdown approve`',
  rejectShutdown: '`team shutdown reject --reason "<why>"`',
  attachEvidence:
    '`team run criteria evidence <criterion> --task <id>` (or `--commit <sha>`, `--message <id>`)',
};
