import type { BoardColumnId, TaskStatusView, TaskView } from '../protocol.js';

/** One column of the board and the statuses it holds. */
export interface BoardColumn {
  id: BoardColumnId;
  title: string;
  statuses: readonly TaskStatusView[];
}

/** The five columns, in order; blocked tasks stay in TODO, marked. */
export const BOARD_COLUMNS: readonly BoardColumn[] = [
  { id: 'todo', title: 'TODO', statuses: ['pending', 'blocked'] },
  { id: 'in-progress', title: 'IN PROGRESS', statuses: ['claimed', 'in_progress'] },
  { id: 'review', title: 'REVIEW', statuses: ['in_review'] },
  { id: 'done', title: 'DONE', statuses: ['completed'] },
  { id: 'approved', title: 'APPROVED', statuses: ['approved'] },
];

function byId(a: TaskView, b: TaskView): number {
  return a.id.length - b.id.length || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** The columns a run's source fills (`undefined`: all five), in board order. */
export function boardColumnsOf(ids: readonly BoardColumnId[] | undefined): readonly BoardColumn[] {
  return ids === undefined
    ? BOARD_COLUMNS
    : BOARD_COLUMNS.filter((column) => ids.includes(column.id));
}

/** Tasks per column of `shown` (by id), and the cancelled ones apart. */
export function groupTasks(
  tasks: Iterable<TaskView>,
  shown: readonly BoardColumn[] = BOARD_COLUMNS,
): {
  columns: TaskView[][];
  cancelled: TaskView[];
} {
  const columns: TaskView[][] = shown.map(() => []);
  const cancelled: TaskView[] = [];
  const columnOf = new Map<TaskStatusView, number>();
  shown.forEach((column, index) => {
    for (const status of column.statuses) columnOf.set(status, index);
  });
  for (const task of tasks) {
    if (task.status === 'cancelled') cancelled.push(task);
    const index = columnOf.get(task.status);
    if (index !== undefined) columns[index]?.push(task);
  }
  for (const column of columns) column.sort(byId);
  cancelled.sort(byId);
  return { columns, cancelled };
}

/** Which actions a task's status allows from the board. */
export function taskActions(task: TaskView): {
  approve: boolean;
  requestChanges: boolean;
  block: boolean;
  unblock: boolean;
  cancel: boolean;
  reassign: boolean;
} {
  const open = !['approved', 'cancelled', 'deleted'].includes(task.status);
  return {
    approve: task.status === 'in_review' || task.status === 'completed',
    requestChanges: task.status === 'in_review',
    block: ['pending', 'claimed', 'in_progress'].includes(task.status),
    unblock: task.status === 'blocked',
    cancel: open,
    reassign: open && task.status !== 'completed',
  };
}
