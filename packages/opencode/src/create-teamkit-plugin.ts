import type { Config, Hooks, Plugin, PluginInput } from '@opencode-ai/plugin';
import type { TeamLibrary } from '@teamkit/team-core';
import { createFileStore, resolveTeamkitHome } from '@teamkit/team-core/storage';
import { type ProjectableConfig, projectTeamsIntoConfig } from './config-hook.js';
import { createEventHandler, type HostEvent } from './event-hook.js';
import { createClientLog, type OpenCodeClient, type PluginLog } from './opencode-client.js';
import { createOpenCodeHost } from './opencode-host.js';
import { createPluginContext } from './plugin-context.js';
import { resolvePluginOptions, type TeamkitPluginOptions } from './plugin-options.js';
import { createTeamkitTools } from './tools/index.js';
import { type NoticeWriter, noticeLoadFailure, writeToStderr } from './user-notice.js';

/** Seams for tests: where the user's notices go besides OpenCode's log. */
export interface TeamkitPluginSeams {
  notice?: NoticeWriter;
}

const FIX_AND_RESTART = 'Fix that file (`team doctor` shows every problem) and restart OpenCode';

/** One notice per config file and team that did not load; OpenCode still gets the rest. */
function noticeLibraryProblems(library: TeamLibrary, log: PluginLog, write: NoticeWriter): void {
  for (const warning of library.warnings) {
    if (warning.topic !== 'source' || warning.code !== 'INVALID_CONFIG') {
      log('warn', warning.message);
      continue;
    }
    noticeLoadFailure(
      log,
      write,
      'a Teamkit config was not loaded, nor its teams',
      warning.message,
      FIX_AND_RESTART,
    );
  }
  for (const skipped of library.skipped) {
    noticeLoadFailure(
      log,
      write,
      `team "${skipped.entry}" was not loaded (${skipped.code})`,
      `${skipped.reason} [${skipped.file}]`,
      FIX_AND_RESTART,
    );
  }
}

/** A non-git folder gives `worktree: "/"`; the project is then the folder OpenCode runs in. */
function projectOf(input: Pick<PluginInput, 'worktree' | 'directory'>): string {
  return input.worktree && input.worktree !== '/' ? input.worktree : input.directory;
}

/**
 * Creates the Teamkit OpenCode plugin (the module's `server` function). `defaults` are
 * applied under the options from `opencode.json`'s tuple form. Disabled, it returns no hooks.
 */
export function createTeamkitPlugin(
  defaults: TeamkitPluginOptions = {},
  seams: TeamkitPluginSeams = {},
): Plugin {
  const write = seams.notice ?? writeToStderr;
  return async (input, rawOptions) => {
    const { options, problems } = resolvePluginOptions(rawOptions, defaults);
    if (!options.enabled) return {};
    const client = input.client as unknown as OpenCodeClient;
    const log = createClientLog(client);
    for (const problem of problems) log('warn', problem);
    const host = createOpenCodeHost({ client, serverUrl: () => input.serverUrl, log });
    const home = resolveTeamkitHome(options.home, process.env);
    const ctx = createPluginContext({
      options,
      home,
      // The plugin keeps its runs in the home's folder: the file store of the home.
      store: createFileStore({ root: home }),
      project: projectOf(input),
      host,
      log,
    });
    const onEvent = createEventHandler(ctx);
    const hooks: Hooks = {
      async config(config: Config) {
        try {
          const library = await ctx.loadLibrary();
          noticeLibraryProblems(library, log, write);
          const report = projectTeamsIntoConfig(config as ProjectableConfig, library, {
            defaultAgent: options.defaultAgent,
          });
          for (const note of report.notes) log(note.level, note.message);
          log(
            'info',
            `added ${report.agents.length} agents and ${report.commands.length} commands`,
            {
              agents: report.agents,
              commands: report.commands,
              ...(report.defaultAgent === undefined ? {} : { defaultAgent: report.defaultAgent }),
            },
          );
        } catch (error) {
          // OpenCode must start even when the team library cannot be read at all.
          noticeLoadFailure(
            log,
            write,
            'could not load the team library, so no team became an agent',
            error,
            'Run `team doctor` to see what is wrong, fix it and restart OpenCode',
          );
        }
      },
      tool: createTeamkitTools(ctx),
      event: ({ event }) => onEvent({ event: event as HostEvent }),
    };
    return hooks;
  };
}
