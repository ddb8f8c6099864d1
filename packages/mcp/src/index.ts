/**
 * @teamkit/mcp: the team's tools for any MCP host, over stdio. Every tool is a projection
 * of team-core's shared definitions (`@teamkit/team-core/tools`); identity comes from the
 * environment Teamkit sets when it launches a member. Every export is listed by name.
 */
export type { ActingMemberPolicy } from './acting-member.js';
export { ACTING_MEMBER_ARGUMENT } from './acting-member.js';
export type { CliRunControlOptions } from './cli-run-control.js';
export { createCliRunControl } from './cli-run-control.js';
export type { TeamkitMcpServer } from './create-teamkit-mcp-server.js';
export { createTeamkitMcpServer } from './create-teamkit-mcp-server.js';
export type { McpHostConfig, McpHostConfigInput } from './mcp-host-config.js';
export { IDENTITY_VARIABLES, renderMcpHostConfig, teamkitMcpCommand } from './mcp-host-config.js';
export type { McpHostName } from './mcp-host-names.js';
export { DEFAULT_SERVER_NAME, MCP_HOSTS, mcpToolName } from './mcp-host-names.js';
export { mcpToolVocabulary } from './mcp-tool-vocabulary.js';
export { runTeamkitMcp } from './run-teamkit-mcp.js';
export type { StdioStreams } from './serve-teamkit-mcp.js';
export { serveTeamkitMcp } from './serve-teamkit-mcp.js';
export type {
  AuthenticatedCaller,
  ServerIdentity,
  ServerIdentityInput,
} from './server-identity.js';
export {
  authenticateIdentity,
  resolveServerIdentity,
  settleServerIdentity,
} from './server-identity.js';
export type { ServerLog } from './server-log.js';
export { createServerLog } from './server-log.js';
export type { TeamkitMcpOptions, TeamkitMcpServerOptions } from './server-options.js';
export { parseServerArguments, SERVER_HELP } from './server-options.js';
export type { ResourceToolRunner, TeamkitResourceOptions } from './teamkit-resources.js';
export { registerTeamkitResources, TEAMKIT_RESOURCES } from './teamkit-resources.js';
