import { resolveRunId } from '../../command-context.js';
import type { CommandHandler } from '../../command-handler.js';

/** `team board [run]`: tasks as kanban columns (pending, in progress, review, done, approved). */
export const boardCommand: CommandHandler = async (context, [run]) => {
  const runId = await resolveRunId(context, run);
  const { createTaskList } = await import('@teamkit/team-core');
  const { boardColumns, renderBoard } = await import('../../dashboard/render-dashboard.js');
  const { tasks, problems } = await createTaskList({ home: context.home, runId }).listTasks();
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
