import { mcpToolVocabulary } from '@teamkit/mcp';
import type { MemberVocabulary, TeamToolVocabulary } from '@teamkit/team-core';
import { getAgentPreset } from '../agent-presets/index.js';
import { readRunLaunch } from '../process-host/run-launch.js';

/**
 * The team protocol's words for each member of a run, from its launch record: a member
 * run by a preset that gives it the team's MCP server is told the tools by the names its
 * CLI shows (`mcp__teamkit__send_message` in Claude Code and Codex, `mcp_teamkit_…` in
 * Gemini CLI, `teamkit_…` in OpenCode; the lead's profile for the lead); every other
 * member gets the runtime's vocabulary (the `team` commands).
 */
export function memberVocabularyFromLaunch(home: string): MemberVocabulary {
  return async (runId, member): Promise<TeamToolVocabulary | undefined> => {
    const launch = (await readRunLaunch(home, runId))?.members[member.name];
    if (launch?.kind !== 'preset') return undefined;
    const host = getAgentPreset(launch.preset).mcpHost;
    if (host === undefined) return undefined;
    return mcpToolVocabulary(host, { profile: member.isLead ? 'lead' : 'member' });
  };
}
