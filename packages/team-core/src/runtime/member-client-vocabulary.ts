import type { TeamToolVocabulary } from './team-protocol.js';

/**
 * The team protocol worded for agents that call the {@link MemberClient} methods
 * directly (an embedding harness that hands them over as functions). The runtime uses it
 * when the adapter supplies no vocabulary of its own; the CLI and the OpenCode plugin do.
 */
export const MEMBER_CLIENT_VOCABULARY: TeamToolVocabulary = {
  readMail: '`inbox()`, then `acknowledge(messageIds)` once you have acted on them',
  sendMessage: '`send({ to, body })`',
  listReadyTasks: '`readyTasks()`',
  claimTask: '`claimTask(id)`, then `startTask(id)`',
  completeTask: '`completeTask(id)`',
  submitForReview: '`submitForReview(id)`',
  createTask: '`createTask({ subject, description, blockedBy })`',
  approveTask: '`approveTask(id)`',
  requestChanges: '`requestChanges(id, note)`',
  requestShutdown:
    '`requestShutdown(member, reason)` (or `requestShutdown("*", reason)` for everyone)',
  approveShutdown: '`approveShutdown()`',
  rejectShutdown: '`rejectShutdown(reason)`',
  attachEvidence: '`attachEvidence(criterionId, { kind, ref })`',
};
