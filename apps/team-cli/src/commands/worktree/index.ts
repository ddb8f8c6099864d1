import type { CommandHandler } from '../../command-handler.js';

/** `team worktree list`: member worktrees whose run is over (orphans) and what they hold. */
export const worktreeListCommand: CommandHandler = async (context) => {
  const { findOrphanWorktrees } = await import('@teamkit/team-core');
  const orphans = await findOrphanWorktrees({ home: context.home });
  context.output.result({ orphans }, () =>
    orphans.length === 0
      ? 'No orphan worktrees.'
      : orphans.map((orphan) => `${orphan.path}`).join('\n'),
  );
  return undefined;
};

/** `team worktree prune [--force]`: removes orphans whose work is saved (all with --force). */
export const worktreePruneCommand: CommandHandler = async (context, _args, options) => {
  const { pruneOrphans } = await import('@teamkit/team-core');
  const report = await pruneOrphans({ home: context.home, force: options.force === true });
  context.output.result({ report }, () =>
    [
      `removed ${report.removed.length}`,
      ...report.refused.map((entry) => `refused ${JSON.stringify(entry)}`),
      ...report.failed.map((entry) => `failed ${JSON.stringify(entry)}`),
    ].join('\n'),
  );
  return undefined;
};
