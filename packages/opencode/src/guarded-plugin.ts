import type { Hooks, Plugin } from '@opencode-ai/plugin';
import { createClientLog, type OpenCodeClient } from './opencode-client.js';
import { type NoticeWriter, noticeLoadFailure, writeToStderr } from './user-notice.js';

/** What {@link createGuardedPlugin} loads: the module with the plugin's factory. */
export interface PluginImplementation {
  createTeamkitPlugin(): Plugin;
}

/** The advice when the plugin's own code or a dependency cannot be imported. */
export const REINSTALL_ADVICE =
  'Reinstall it where OpenCode resolves it (npm install @teamkit/opencode in your project, or remove the cached copy under ~/.cache/opencode/packages), then restart OpenCode';

/**
 * The plugin's `server` function, importing the implementation only when OpenCode calls
 * it: a broken install (a missing `@teamkit/team-core`, say) then gives one clear line
 * instead of the silent drop OpenCode applies to a module that fails to import.
 */
export function createGuardedPlugin(
  load: () => Promise<PluginImplementation>,
  write: NoticeWriter = writeToStderr,
): Plugin {
  return async (input, options) => {
    let implementation: PluginImplementation;
    try {
      implementation = await load();
    } catch (error) {
      const log = createClientLog(input.client as unknown as OpenCodeClient);
      noticeLoadFailure(
        log,
        write,
        'the OpenCode plugin @teamkit/opencode could not load its code',
        error,
        REINSTALL_ADVICE,
      );
      const none: Hooks = {};
      return none;
    }
    return implementation.createTeamkitPlugin()(input, options);
  };
}
