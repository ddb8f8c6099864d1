import { resolveRunId } from '../../command-context.js';
import type { CommandHandler } from '../../command-handler.js';
import { runToolAs } from '../../tool-command.js';

/**
 * `team board [run]`: tasks as kanban columns (pending, in progress, review, done,
 * approved), read with the shared `task_list` tool.
 */
export const boardCommand: CommandHandler = async (context, [run]) => {
  const runId = await resolveRunId(context, run);
  const { boardColumns, renderBoard } = await import('../../dashboard/render-dashboard.js');
  const { output } = await runToolAs(context, runId, 'task_list', {});
  const { tasks } = output;
  const problems = output.problems ?? [];
  const { problemLines } = await import('../../problem-lines.js');
  const columns = boardColumns(tasks).map((column) => ({
    title: column.title,
    tasks: column.tasks.map((task) => ({
      id: task.id,
      subject: task.subject,
      status: task.status,
      owner: task.owner ?? null,
    })),
  }));
  context.output.result({ runId, columns, problems }, () =>
    [
      renderBoard(tasks, { paint: context.output.style, width: process.stdout.columns ?? 100 }),
      ...problemLines(context.output, problems),
    ].join('\n'),
  );
  return undefined;
};
