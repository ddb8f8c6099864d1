import type { RunReport } from './collect-run-report.js';

function duration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  return minutes < 120 ? `${minutes} min` : `${(minutes / 60).toFixed(1)} h`;
}

const short = (commit: string) => commit.slice(0, 12);

/**
 * A run report as plain lines for a terminal or a model: the run and its duration, the
 * goal's criteria, tasks with owner, status, work and where it was merged, commits per
 * branch, members with turns and messages, merges, and the worktrees that remain.
 */
export function renderRunReport(report: RunReport): string {
  const lines = [
    `run ${report.runId} (${report.team}): ${report.status}${report.statusReason === undefined ? '' : ` — ${report.statusReason}`}`,
    `  duration ${duration(report.durationMs)}${report.baseBranch === undefined ? '' : `, base branch ${report.baseBranch}`}, host ${report.host}`,
  ];
  if (report.goal !== undefined) {
    lines.push(`goal: ${report.goal.text}`);
    for (const criterion of report.goal.criteria) {
      const proof =
        criterion.waived !== undefined
          ? `waived by ${criterion.waived.by}: ${criterion.waived.reason}`
          : criterion.evidence.length === 0
            ? 'NO EVIDENCE'
            : criterion.evidence
                .map(
                  (entry) =>
                    `${entry.kind} ${entry.kind === 'commit' ? short(entry.ref) : entry.ref}`,
                )
                .join(', ');
      lines.push(
        `  ${criterion.met ? '[x]' : '[ ]'} ${criterion.id}. ${criterion.text} — ${proof}`,
      );
    }
  }
  lines.push(`tasks: ${report.tasks.length}`);
  for (const task of report.tasks) {
    const work =
      task.work === undefined
        ? ''
        : ` ${task.work.branch}@${short(task.work.commit)}${task.work.uncommittedFiles > 0 ? ` (+${task.work.uncommittedFiles} uncommitted)` : ''}`;
    const merged = task.mergedInto.length === 0 ? '' : ` merged into ${task.mergedInto.join(', ')}`;
    lines.push(
      `  #${task.id} [${task.status}] ${task.subject}${task.owner === undefined ? '' : ` (${task.owner})`}${work}${merged}`,
    );
  }
  lines.push('members:');
  for (const member of report.members) {
    lines.push(
      `  ${member.name} (${member.role}${member.isLead ? ', lead' : ''}): ${member.status}, ${member.turns} turns, ${member.messagesSent} sent / ${member.messagesReceived} received`,
    );
  }
  lines.push(
    `messages: ${report.messages.sent} sent (${report.messages.copies} copies); user ${report.messages.user.sent} sent / ${report.messages.user.received} received`,
  );
  if (report.branches.length > 0) lines.push('commits:');
  for (const branch of report.branches) {
    lines.push(
      `  ${branch.branch}: ${branch.error ?? `${branch.count} commit${branch.count === 1 ? '' : 's'}`}`,
    );
  }
  lines.push(report.merges.length === 0 ? 'merged: nothing yet' : 'merged:');
  for (const merge of report.merges) {
    lines.push(
      `  ${new Date(merge.at).toISOString()} ${merge.into} ${merge.from === undefined ? '(new)' : short(merge.from)} → ${short(merge.to)}: tasks ${merge.tasks.map((task) => task.id).join(', ') || '-'}${merge.requestedInto === undefined ? '' : ` (instead of ${merge.requestedInto})`}`,
    );
  }
  lines.push(report.worktrees.length === 0 ? 'worktrees left: none' : 'worktrees left:');
  for (const worktree of report.worktrees) {
    lines.push(
      `  ${worktree.path}${worktree.changedFiles > 0 ? ` (${worktree.changedFiles} uncommitted files)` : ''}`,
    );
  }
  for (const problem of report.problems) lines.push(`problem: ${problem.path}: ${problem.message}`);
  return lines.join('\n');
}
