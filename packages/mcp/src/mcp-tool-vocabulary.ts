import type { TeamToolVocabulary } from '@teamkit/team-core';
import {
  createToolVocabulary,
  type TeamToolProfile,
  teamToolsOfProfile,
} from '@teamkit/team-core/tools';
import { DEFAULT_SERVER_NAME, type McpHostName, mcpToolName } from './mcp-host-names.js';

/**
 * The team protocol's vocabulary for members that reach their team through this server in
 * `host`: the tools of `profile`, named exactly as that host shows them to its model.
 */
export function mcpToolVocabulary(
  host: McpHostName,
  options: { profile?: TeamToolProfile; serverName?: string } = {},
): TeamToolVocabulary {
  const serverName = options.serverName ?? DEFAULT_SERVER_NAME;
  return createToolVocabulary(teamToolsOfProfile(options.profile ?? 'member'), (tool) =>
    mcpToolName(host, tool, serverName),
  );
}
