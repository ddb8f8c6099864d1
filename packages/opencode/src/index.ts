/**
 * @teamkit/opencode: the Teamkit plugin for OpenCode. A loader calls every runtime export
 * as a plugin, so the module exports only the plugin itself (the v1 module form); the
 * factory lives at `@teamkit/opencode/factory`.
 */
import type { PluginModule } from '@opencode-ai/plugin';
import { createGuardedPlugin } from './guarded-plugin.js';

export type { TeamkitPluginOptions, TmuxOption } from './plugin-options.js';

/**
 * The plugin module OpenCode loads: `"plugin": ["@teamkit/opencode"]`. Its code (and
 * `@teamkit/team-core`) is imported on the first call, so a broken install is reported.
 */
const teamkit: PluginModule = {
  id: 'teamkit',
  server: createGuardedPlugin(() => import('./create-teamkit-plugin.js')),
};

export default teamkit;
