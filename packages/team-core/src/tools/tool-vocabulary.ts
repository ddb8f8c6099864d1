import type { TeamToolVocabulary } from '../runtime/team-protocol.js';
import { TEAM_PROTOCOL_OPERATIONS, type TeamProtocolOperation } from '../runtime/team-protocol.js';
import type { AnyTeamTool, TeamToolNamer } from './team-tool.js';

/**
 * The team protocol's vocabulary for an adapter, generated from the tools it offers and
 * the names its host shows the model (`team_send_message`, `mcp__teamkit__send_message`):
 * each operation is worded by the first offered tool that performs it. An operation the
 * protocol requires but no offered tool performs is worded as a message to the lead.
 */
export function createToolVocabulary(
  tools: readonly AnyTeamTool[],
  name: TeamToolNamer,
): TeamToolVocabulary {
  const words: Partial<Record<TeamProtocolOperation, string>> = {};
  for (const tool of tools) {
    for (const operation of TEAM_PROTOCOL_OPERATIONS) {
      const how = tool.protocol?.[operation];
      if (how !== undefined && words[operation] === undefined) words[operation] = how(name);
    }
  }
  const required = [
    'readMail',
    'sendMessage',
    'listReadyTasks',
    'claimTask',
    'completeTask',
    'submitForReview',
    'createTask',
  ] as const;
  for (const operation of required) {
    // A small tool set (the `minimal` profile) may lack one: the member then asks the lead.
    words[operation] ??= `a message to your lead (no tool here does it)`;
  }
  return words as TeamToolVocabulary;
}
