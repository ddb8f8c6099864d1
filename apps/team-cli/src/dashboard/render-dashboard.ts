import type { MemberStatusLine, RunStatusReport, Task, TaskStatus } from '@teamkit/team-core';

/** How to paint text; identity when colour is off. */
export type Paint = (
  kind: 'bold' | 'dim' | 'red' | 'green' | 'yellow' | 'cyan',
  text: string,
) => string;

/** Options of the pure renderers. */
export interface RenderOptions {
  width?: number;
  paint?: Paint;
  now?: number;
}

const plain: Paint = (_kind, text) => text;

function fitCell(text: string, width: number): string {
  if (width <= 0) return '';
  if (text.length <= width) return text.padEnd(width);
  return width <= 1 ? text.slice(0, width) : `${text.slice(0, width - 1)}…`;
}

/** A duration as `1m05s` / `42s`. */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  const minutes = Math.floor(seconds / 60);
  return minutes > 0 ? `${minutes}m${String(seconds % 60).padStart(2, '0')}s` : `${seconds}s`;
}

/** A progress bar of `done` out of `total`, `width` cells wide. */
export function renderProgressBar(done: number, total: number, width = 24): string {
  const filled = total === 0 ? 0 : Math.round((done / total) * width);
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total}`;
}

const STATUS_PAINT: Partial<Record<MemberStatusLine['status'], Parameters<Paint>[0]>> = {
  running: 'green',
  idle: 'cyan',
  shutdown_approved: 'yellow',
  errored: 'red',
  terminated: 'dim',
};

function lastMessageText(member: MemberStatusLine, now: number): string {
  const last = member.lastMessage;
  if (last === undefined) return '-';
  const direction =
    last.from === member.name
      ? `-> ${last.to.length > 1 ? '*' : (last.to[0] ?? '?')}`
      : `<- ${last.from}`;
  return `${direction} ${last.kind ?? 'message'} ${formatDuration(now - last.at)} ago`;
}

/** One frame of the dashboard: header, progress bar, one line per member, recent events. */
export function renderDashboard(report: RunStatusReport, options: RenderOptions = {}): string {
  const width = Math.max(60, options.width ?? 100);
  const paint = options.paint ?? plain;
  const now = options.now ?? Date.now();
  const lines: string[] = [];
  lines.push(
    `${paint('bold', `Team ${report.teamName}`)}  run ${report.runId.slice(0, 8)}  ${report.status}  ${formatDuration(now - report.createdAt)}`,
  );
  lines.push(
    `Progress ${renderProgressBar(report.progress.done, report.progress.total)} tasks done`,
  );
  lines.push('');
  const nameWidth = Math.max(8, ...report.members.map((member) => member.name.length + 1));
  const statusWidth = 18;
  const taskWidth = Math.max(20, Math.floor((width - nameWidth - statusWidth - 4) / 2));
  const messageWidth = Math.max(10, width - nameWidth - statusWidth - taskWidth - 3);
  lines.push(
    paint(
      'dim',
      `${fitCell('MEMBER', nameWidth)} ${fitCell('STATUS', statusWidth)} ${fitCell('TASK', taskWidth)} ${fitCell('LAST MESSAGE', messageWidth)}`.trimEnd(),
    ),
  );
  for (const member of report.members) {
    const task = member.currentTask;
    const status = `${member.status}${member.unread > 0 ? ` (${member.unread} unread)` : ''}`;
    lines.push(
      [
        fitCell(`${member.name}${member.isLead ? '*' : ''}`, nameWidth),
        paint(STATUS_PAINT[member.status] ?? 'bold', fitCell(status, statusWidth)),
        fitCell(task === undefined ? '-' : `#${task.id} ${task.status} ${task.subject}`, taskWidth),
        fitCell(lastMessageText(member, now), messageWidth),
      ]
        .join(' ')
        .trimEnd(),
    );
  }
  const events = report.recentEvents.slice(-5);
  if (events.length > 0) {
    lines.push('');
    for (const event of events) {
      lines.push(
        paint(
          'dim',
          fitCell(
            `${formatDuration(now - event.at)} ago  ${event.actor}  ${event.type} ${(event.ids ?? []).join(' ')}`,
            width,
          ).trimEnd(),
        ),
      );
    }
  }
  return lines.join('\n');
}

/** The kanban columns of `team board`, in order, with the task statuses each holds. */
export const BOARD_COLUMNS: readonly { title: string; statuses: readonly TaskStatus[] }[] = [
  { title: 'pending', statuses: ['pending', 'blocked'] },
  { title: 'in progress', statuses: ['claimed', 'in_progress'] },
  { title: 'review', statuses: ['in_review'] },
  { title: 'done', statuses: ['completed'] },
  { title: 'approved', statuses: ['approved'] },
];

/** What the board shows of a task: a stored task, or a task as the shared tools return it. */
export type BoardTask = Pick<Task, 'id' | 'subject' | 'status' | 'owner'>;

/** Tasks grouped by board column (cancelled and deleted tasks are left out). */
export function boardColumns<T extends BoardTask>(
  tasks: readonly T[],
): { title: string; tasks: T[] }[] {
  return BOARD_COLUMNS.map((column) => ({
    title: column.title,
    tasks: tasks.filter((task) => column.statuses.includes(task.status)),
  }));
}

/** The board as side-by-side columns of `#id subject (owner)` cards. */
export function renderBoard(tasks: readonly BoardTask[], options: RenderOptions = {}): string {
  const width = Math.max(60, options.width ?? 100);
  const paint = options.paint ?? plain;
  const columns = boardColumns(tasks);
  const cell = Math.floor((width - (columns.length - 1) * 2) / columns.length);
  const rows = Math.max(1, ...columns.map((column) => column.tasks.length));
  const lines = [
    paint(
      'bold',
      columns
        .map((column) => fitCell(`${column.title} (${column.tasks.length})`, cell))
        .join('  ')
        .trimEnd(),
    ),
  ];
  for (let row = 0; row < rows; row += 1) {
    lines.push(
      columns
        .map((column) => {
          const task = column.tasks[row];
          if (task === undefined) return fitCell('', cell);
          const blocked = task.status === 'blocked' ? ' [blocked]' : '';
          return fitCell(
            `#${task.id} ${task.subject}${task.owner ? ` (${task.owner})` : ''}${blocked}`,
            cell,
          );
        })
        .join('  ')
        .trimEnd(),
    );
  }
  return lines.join('\n');
}
