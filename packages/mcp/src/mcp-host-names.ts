/** The MCP hosts Teamkit knows how to configure. */
export const MCP_HOSTS = ['claude', 'codex', 'gemini', 'opencode'] as const;
/** One of {@link MCP_HOSTS}. */
export type McpHostName = (typeof MCP_HOSTS)[number];

/** The server name hosts are configured with unless told otherwise. */
export const DEFAULT_SERVER_NAME = 'teamkit';

/**
 * The name a host shows its model for one of this server's tools: Claude Code and Codex
 * `mcp__<server>__<tool>`, Gemini CLI `mcp_<server>_<tool>`, OpenCode `<server>_<tool>`.
 * Prompts must use it exactly (Claude Code finds deferred tools by it).
 */
export function mcpToolName(
  host: McpHostName | undefined,
  tool: string,
  serverName: string = DEFAULT_SERVER_NAME,
): string {
  switch (host) {
    case 'claude':
    case 'codex':
      return `mcp__${serverName}__${tool}`;
    case 'gemini':
      return `mcp_${serverName}_${tool}`;
    case 'opencode':
      return `${serverName}_${tool}`;
    default:
      return tool;
  }
}
