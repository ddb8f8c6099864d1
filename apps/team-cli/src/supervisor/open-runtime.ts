import type { RuntimeState, TeamRuntime, TmuxRunner } from '@teamkit/team-core';
import { createProcessHost, type ProcessHost } from '../process-host/index.js';

/** Options for {@link openProcessRuntime}. */
export interface OpenProcessRuntimeOptions {
  home: string;
  env: NodeJS.ProcessEnv;
  agentCommand?: string;
  /** Open tmux panes: `true` inside tmux, or an explicit runner (tests use a private server). */
  tmux?: boolean | TmuxRunner;
  project?: string;
  resumeOnStart?: boolean;
  /** A run whose recorded tmux layout should be reachable (to close its panes). */
  state?: RuntimeState;
}

/** The runtime over the process host, as the `team` commands use it. */
export async function openProcessRuntime(
  options: OpenProcessRuntimeOptions,
): Promise<{ runtime: TeamRuntime; host: ProcessHost }> {
  const { createTeamRuntime, createTmuxRunner } = await import('@teamkit/team-core');
  let runner: TmuxRunner | undefined;
  if (typeof options.tmux === 'object') runner = options.tmux;
  else if (options.tmux === true) runner = createTmuxRunner();
  else if (options.state?.tmuxLayout !== undefined) {
    const socket = options.state.tmuxLayout.socket;
    runner = createTmuxRunner(
      socket === undefined
        ? {}
        : socket.includes('/')
          ? { socketPath: socket }
          : { socketName: socket },
    );
  }
  const host = createProcessHost({
    home: options.home,
    ...(options.agentCommand === undefined ? {} : { agentCommand: options.agentCommand }),
    tmux: runner !== undefined,
  });
  const runtime = await createTeamRuntime({
    home: options.home,
    host,
    env: options.env,
    channel: 'cli',
    resumeOnStart: options.resumeOnStart ?? false,
    ...(options.project === undefined ? {} : { project: options.project }),
    ...(runner === undefined
      ? {}
      : {
          tmux: {
            runner,
            ...(options.env.TMUX_PANE ? { callerPaneId: options.env.TMUX_PANE } : {}),
          },
        }),
  });
  return { runtime, host };
}
