import {
  createTeamRuntime,
  findSessionMember,
  loadSettings,
  loadTeamLibrary,
  type SessionMember,
  type TeamLibrary,
  type TeamRuntime,
} from '@teamkit/team-core';
import { errorMessage } from '@teamkit/team-core/errors';
import type { TeamkitStore } from '@teamkit/team-core/storage';
import { createTmuxRunner } from '@teamkit/team-core/tmux';
import type { PluginLog } from './opencode-client.js';
import type { OpenCodeHost } from './opencode-host.js';
import type { ResolvedPluginOptions, TmuxOption } from './plugin-options.js';
import { OPENCODE_TOOL_VOCABULARY } from './tools/tool-vocabulary.js';

/** Who called a tool or went idle: a member (or the lead) of a run, found by the core's session lookup. */
export type Caller = SessionMember;

/** What the tools and the event handler share within one plugin instance. */
export interface PluginContext {
  readonly options: ResolvedPluginOptions;
  readonly home: string;
  /** The store holding the home's runs, chosen where the plugin starts. */
  readonly store: TeamkitStore;
  /** The project whose `.teamkit/` teams are visible and where members work. */
  readonly project: string;
  readonly host: OpenCodeHost;
  readonly log: PluginLog;
  /** The runtime, created on first use, after resuming interrupted runs (failures are logged). */
  runtime(): Promise<TeamRuntime>;
  loadLibrary(): Promise<TeamLibrary>;
  /** The run and member a session belongs to, by the core's one rule ({@link findSessionMember}). */
  resolveCaller(sessionId: string): Promise<Caller | undefined>;
}

/** Inputs of {@link createPluginContext}. */
export interface PluginContextOptions {
  options: ResolvedPluginOptions;
  home: string;
  /** The store holding the home's runs. */
  store: TeamkitStore;
  project: string;
  host: OpenCodeHost;
  log: PluginLog;
  env?: NodeJS.ProcessEnv;
  /** Seam for tests: how the runtime is made (default {@link createTeamRuntime}). */
  createRuntime?: typeof createTeamRuntime;
}

/** Creates the shared context; nothing is read or started until a tool or event needs it. */
export function createPluginContext(input: PluginContextOptions): PluginContext {
  const { options, home, store, project, host, log } = input;
  const env = input.env ?? process.env;
  const makeRuntime = input.createRuntime ?? createTeamRuntime;
  let runtime: Promise<TeamRuntime> | undefined;

  /** The plugin's `tmux` option when given, else Teamkit's `tmux.enabled` setting. */
  async function tmuxWish(): Promise<TmuxOption> {
    if (options.tmux !== undefined) return options.tmux;
    const setting = (await loadSettings({ home, project, env })).values['tmux.enabled'];
    return setting === 'auto' ? 'auto' : setting === 'on';
  }

  async function tmuxOption(): Promise<Parameters<typeof createTeamRuntime>[0]['tmux']> {
    const wish = await tmuxWish();
    if (wish === false) return undefined;
    if (wish === 'auto' && !env.TMUX) return undefined;
    const check = await host.checkAttach();
    if (!check.usable) {
      log('info', `tmux panes are off: ${check.reason}`);
      return undefined;
    }
    return {
      runner: createTmuxRunner(),
      ...(env.TMUX_PANE ? { callerPaneId: env.TMUX_PANE } : {}),
    };
  }

  async function start(): Promise<TeamRuntime> {
    const tmux = await tmuxOption();
    const created = await makeRuntime({
      home,
      store,
      host,
      project,
      vocabulary: OPENCODE_TOOL_VOCABULARY,
      worktrees: options.worktrees,
      resumeOnStart: false,
      env,
      ...(tmux === undefined ? {} : { tmux }),
    });
    // Resumed here, on first use rather than at plugin start, and before any delivery of
    // this process: resuming reclaims every reservation, which must not race a live one.
    try {
      const report = await created.resumeAll();
      for (const failure of report.failed) {
        log('warn', `could not resume run ${failure.runId}: ${failure.error}`);
      }
      for (const run of report.runs) {
        for (const error of run.errors) log('warn', `resuming run ${run.runId}: ${error}`);
      }
    } catch (error) {
      log('error', `resuming runs failed: ${errorMessage(error)}`);
    }
    return created;
  }

  return {
    options,
    home,
    store,
    project,
    host,
    log,
    runtime() {
      runtime ??= start().catch((error: unknown) => {
        runtime = undefined;
        throw error;
      });
      return runtime;
    },
    loadLibrary: () => loadTeamLibrary({ home, project, env }),
    resolveCaller: (sessionId) => findSessionMember(home, sessionId, { store }),
  };
}
