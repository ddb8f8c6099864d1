/**
 * @teamkit/opencode: the Teamkit plugin for OpenCode. A loader calls every runtime export
 * as a plugin, so the module exports only the plugin itself (the v1 module form); the
 * factory lives at `@teamkit/opencode/factory`.
 */
import type { PluginModule } from '@opencode-ai/plugin';
import { createTeamkitPlugin } from './create-teamkit-plugin.js';

export type { TeamkitPluginOptions, TmuxOption } from './plugin-options.js';

/** The plugin module OpenCode loads: `"plugin": ["@teamkit/opencode"]`. */
const teamkit: PluginModule = { id: 'teamkit', server: createTeamkitPlugin() };

export default teamkit;
