import type { RunMember, RuntimeState, SettingsValues, TeamRuntime } from '@teamkit/team-core';
import type { TeamkitStore } from '@teamkit/team-core/storage';
import type { TmuxRunner } from '@teamkit/team-core/tmux';
import { loadCliSettings } from '../cli-settings.js';
import { createProcessHost, type ProcessHost } from '../process-host/index.js';
import { TEAM_COMMAND_VOCABULARY } from '../team-command-vocabulary.js';
import { memberVocabularyFromLaunch } from './member-vocabulary.js';

/** Options for {@link openProcessRuntime}. */
export interface OpenProcessRuntimeOptions {
  home: string;
  /** The store holding the home's runs (the command's). */
  store: TeamkitStore;
  env: NodeJS.ProcessEnv;
  /** The long-lived template of members whose run has no launch record (older runs, the demo). */
  agentCommand?: string;
  /** Open tmux panes: `true` inside tmux, or an explicit runner (tests use a private server). */
  tmux?: boolean | TmuxRunner;
  project?: string;
  resumeOnStart?: boolean;
  /** A run whose recorded tmux layout should be reachable (to close its panes). */
  state?: RuntimeState;
  /** Settings already loaded by the command; read from the config when absent. */
  settings?: SettingsValues;
}

/** Where a run's members were given tmux panes (written by the process host in tmux mode). */
async function readMemberPanes(
  home: string,
  runId: string,
): Promise<{ socket: string | null; callerPaneId: string | null } | undefined> {
  const { createFileStore, readDocument, runKeys } = await import('@teamkit/team-core/storage');
  const { MemberPanesSchema, memberPanesKey } = await import('../process-host/member-panes.js');
  try {
    const stored = await readDocument(
      // The panes are this machine's: their record is in the home's folder, whatever the store.
      createFileStore({ root: home }),
      memberPanesKey(runKeys(runId).root),
      MemberPanesSchema,
    );
    return stored === undefined
      ? undefined
      : { socket: stored.value.socket, callerPaneId: stored.value.callerPaneId };
  } catch {
    // An unreadable record: the panes are unknown, as if none were recorded.
    return undefined;
  }
}

function socketOptions(socket: string | undefined): { socketPath?: string; socketName?: string } {
  if (socket === undefined) return {};
  return socket.includes('/') ? { socketPath: socket } : { socketName: socket };
}

/** The runtime over the process host, as the `team` commands use it, and the settings it runs by. */
export async function openProcessRuntime(options: OpenProcessRuntimeOptions): Promise<{
  runtime: TeamRuntime;
  host: ProcessHost;
  settings: SettingsValues;
  /** This machine's id when the home's runs live in a shared store (see `machineIdOf`). */
  machine: string | undefined;
}> {
  const settings = options.settings ?? (await loadCliSettings(options, options.project));
  const { machineIdOf } = await import('./machine-id.js');
  const machine = await machineIdOf(options.home, options.store);
  const { createTeamRuntime } = await import('@teamkit/team-core');
  const { createTmuxRunner } = await import('@teamkit/team-core/tmux');
  const { heartbeatStaleMs, watchHeartbeat } = await import('./member-heartbeats.js');
  // Resume judges another machine's members by their heartbeats, as the supervisor does.
  const isAliveElsewhere = async (runId: string, member: RunMember) =>
    member.sessionId !== undefined &&
    watchHeartbeat(options.store, runId, member.name, member.sessionId, {
      staleMs: heartbeatStaleMs(options.env),
    });
  let runner: TmuxRunner | undefined;
  let callerPaneId = options.env.TMUX_PANE || undefined;
  const panes =
    options.state === undefined
      ? undefined
      : await readMemberPanes(options.home, options.state.runId);
  if (typeof options.tmux === 'object') runner = options.tmux;
  else if (options.tmux === true) runner = createTmuxRunner();
  else if (panes !== undefined) {
    runner = createTmuxRunner(socketOptions(panes.socket ?? undefined));
    callerPaneId = panes.callerPaneId ?? undefined;
  } else if (options.state?.tmuxLayout !== undefined) {
    runner = createTmuxRunner(socketOptions(options.state.tmuxLayout.socket));
  }
  // With tmux, members run in their own panes (the host lays them out); the runtime's
  // layout of attach panes is only for recorded layouts of older runs.
  const host = createProcessHost({
    home: options.home,
    store: options.store,
    ...(options.agentCommand === undefined ? {} : { agentCommand: options.agentCommand }),
    ...(runner === undefined ||
    (options.tmux === undefined && panes === undefined) ||
    options.tmux === false
      ? {}
      : { tmux: { runner, ...(callerPaneId === undefined ? {} : { callerPaneId }) } }),
  });
  const runtime = await createTeamRuntime({
    home: options.home,
    store: options.store,
    host,
    env: options.env,
    vocabulary: TEAM_COMMAND_VOCABULARY,
    vocabularyFor: memberVocabularyFromLaunch(options.home),
    settings,
    resumeOnStart: options.resumeOnStart ?? false,
    ...(machine === undefined ? {} : { machine, isAliveElsewhere }),
    ...(options.project === undefined ? {} : { project: options.project }),
    ...(runner === undefined || options.state?.tmuxLayout === undefined
      ? {}
      : {
          tmux: {
            runner,
            ...(options.env.TMUX_PANE ? { callerPaneId: options.env.TMUX_PANE } : {}),
          },
        }),
  });
  return { runtime, host, settings, machine };
}
