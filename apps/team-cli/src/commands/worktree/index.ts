import type { CommandHandler } from '../../command-handler.js';

/** `team worktree list`: member worktrees whose run is over (orphans) and what they hold. */
export const worktreeListCommand: CommandHandler = async (context) => {
  const { findOrphanWorktrees } = await import('@teamkit/team-core/worktree');
  const orphans = await findOrphanWorktrees({ home: context.home, store: context.store });
  context.output.result({ orphans }, () =>
    orphans.length === 0
      ? 'No orphan worktrees.'
      : orphans
          .map(
            (orphan) =>
              `${orphan.path}  ${orphan.branch}  (run ${orphan.runId.slice(0, 8)} ${orphan.reason === 'run-missing' ? 'is gone' : orphan.runStatus})`,
          )
          .join('\n'),
  );
  return undefined;
};

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

function listed(items: readonly string[], limit = 3): string {
  return `${items.slice(0, limit).join(', ')}${items.length > limit ? `, … ${items.length - limit} more` : ''}`;
}

/** `team worktree prune [--force]`: removes orphans whose work is saved (all with --force). */
export const worktreePruneCommand: CommandHandler = async (context, _args, options) => {
  const { pruneOrphans } = await import('@teamkit/team-core/worktree');
  const report = await pruneOrphans({
    home: context.home,
    store: context.store,
    force: options.force === true,
  });
  const { output } = context;
  output.result({ report }, () => {
    if (report.removed.length + report.refused.length + report.failed.length === 0)
      return 'No orphan worktrees.';
    const lines = [
      `${output.style('green', 'removed')} ${plural(report.removed.length, 'worktree')}`,
    ];
    for (const entry of report.removed) {
      const lost = entry.discarded.files.length + entry.discarded.commits.length;
      lines.push(
        `  ${entry.path}${entry.branchDeleted ? ` (branch ${entry.branch} deleted)` : ''}${lost > 0 ? ` — discarded ${plural(entry.discarded.files.length, 'changed file')}, ${plural(entry.discarded.commits.length, 'commit')}` : ''}`,
      );
    }
    if (report.refused.length > 0) {
      lines.push(
        `${output.style('yellow', 'kept')} ${plural(report.refused.length, 'worktree')} with unsaved work (merge or push it, or --force to discard it)`,
      );
      for (const entry of report.refused) {
        const { files, commits } = entry.unsaved;
        const parts = [
          files.length > 0 ? `${plural(files.length, 'changed file')} (${listed(files)})` : '',
          commits.length > 0
            ? `${plural(commits.length, 'unmerged commit')} (${listed(commits.map((c) => `${c.sha.slice(0, 7)} ${c.subject}`))})`
            : '',
        ].filter((part) => part !== '');
        lines.push(`  ${entry.path} on ${entry.branch}: ${parts.join('; ')}`);
      }
    }
    if (report.failed.length > 0) {
      lines.push(`${output.style('red', 'failed')} ${plural(report.failed.length, 'worktree')}`);
      for (const entry of report.failed) lines.push(`  ${entry.path}: ${entry.message}`);
    }
    return lines.join('\n');
  });
  return undefined;
};
