import type { CommandHandler } from '../../command-handler.js';

/** `team tmux sweep`: kills teamkit tmux sessions and panes whose run is not active. */
export const tmuxSweepCommand: CommandHandler = async (context) => {
  const { createTmuxRunner, sweepStaleSessions } = await import('@teamkit/team-core/tmux');
  const report = await sweepStaleSessions({
    home: context.home,
    store: context.store,
    runner: createTmuxRunner(),
  });
  context.output.result(
    { report },
    () =>
      `killed ${report.killedSessions.length} session(s): ${report.killedSessions.join(', ') || '-'}`,
  );
  return undefined;
};
