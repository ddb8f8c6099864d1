/**
 * The plugin factory and the pieces a custom plugin file may compose, e.g.
 * `export default { id: 'teamkit', server: createTeamkitPlugin({ tmux: false }) }`.
 * Not the package root: a loader would call these exports as plugins.
 */
export type {
  ProjectableConfig,
  ProjectedAgent,
  ProjectedCommand,
  ProjectionNote,
  ProjectionOptions,
  ProjectionReport,
} from './config-hook.js';
export { agentNameOf, ENV_READ_RULES, projectTeamsIntoConfig } from './config-hook.js';
export type { TeamkitPluginSeams } from './create-teamkit-plugin.js';
export { createTeamkitPlugin } from './create-teamkit-plugin.js';
export type { OpenCodeClient } from './opencode-client.js';
export type { OpenCodeHost, OpenCodeHostOptions } from './opencode-host.js';
export { createOpenCodeHost } from './opencode-host.js';
export type { TeamkitPluginOptions, TmuxOption } from './plugin-options.js';
export type { NoticeWriter } from './user-notice.js';
