import type { RunStatusReport, Task } from '@teamkit/team-core';
import { describe, expect, it } from 'vitest';
import { progressLine } from './live-dashboard.js';
import {
  boardColumns,
  formatDuration,
  renderBoard,
  renderDashboard,
  renderProgressBar,
} from './render-dashboard.js';

const task = (id: string, status: Task['status'], owner?: string): Task =>
  ({
    version: 1,
    id,
    subject: `Task ${id}`,
    description: '',
    status,
    blocks: [],
    blockedBy: [],
    createdAt: 0,
    updatedAt: 0,
    createdBy: 'lead',
    ...(owner === undefined ? {} : { owner }),
  }) as unknown as Task;

const report = {
  runId: '12345678-aaaa-4bbb-8ccc-123456789012',
  teamName: 'coding-team',
  status: 'active',
  createdAt: 0,
  updatedAt: 0,
  members: [
    { name: 'lead', role: 'lead', isLead: true, status: 'running', unread: 0, turns: 0 },
    {
      name: 'implementer',
      role: 'implementer',
      isLead: false,
      status: 'idle',
      unread: 2,
      turns: 0,
      currentTask: { id: '3', subject: 'Implement the core module', status: 'in_progress' },
      lastMessage: { at: 55_000, from: 'lead', to: ['implementer'], kind: 'message' },
    },
  ],
  tasks: [task('1', 'approved', 'architect'), task('3', 'in_progress', 'implementer')],
  tasksByStatus: { approved: 1, in_progress: 1 },
  progress: { done: 1, total: 2 },
  recentEvents: [
    { version: 1, at: 50_000, runId: 'x', actor: 'lead', type: 'task.created', ids: ['3'] },
  ],
  problems: [],
  counters: {},
} as unknown as RunStatusReport;

describe('render functions', () => {
  it('formats durations and progress bars', () => {
    expect(formatDuration(42_000)).toBe('42s');
    expect(formatDuration(65_000)).toBe('1m05s');
    expect(renderProgressBar(1, 4, 8)).toBe('[##------] 1/4');
    expect(renderProgressBar(0, 0, 4)).toBe('[----] 0/0');
  });

  it('renders a dashboard frame with members, tasks and last messages', () => {
    const frame = renderDashboard(report, { width: 120, now: 60_000 });
    expect(frame).toContain('Team coding-team  run 12345678  active  1m00s');
    expect(frame).toContain('Progress [############------------] 1/2 tasks done');
    expect(frame).toMatch(/lead\*\s+running/);
    expect(frame).toMatch(
      /implementer\s+idle \(2 unread\)\s+#3 in_progress Implement the core module\s+<- lead message 5s ago/,
    );
    expect(frame).toContain('lead  task.created 3');
  });

  it('groups tasks into board columns and renders them side by side', () => {
    const tasks = [
      task('1', 'pending'),
      task('2', 'blocked'),
      task('3', 'claimed', 'tester'),
      task('4', 'in_review'),
      task('5', 'completed'),
      task('6', 'approved'),
      task('7', 'cancelled'),
    ];
    expect(
      boardColumns(tasks).map((column) => [column.title, column.tasks.map((entry) => entry.id)]),
    ).toEqual([
      ['pending', ['1', '2']],
      ['in progress', ['3']],
      ['review', ['4']],
      ['done', ['5']],
      ['approved', ['6']],
    ]);
    const board = renderBoard(tasks, { width: 160 });
    expect(board.split('\n')[0]).toMatch(
      /^pending \(2\)\s+in progress \(1\)\s+review \(1\)\s+done \(1\)\s+approved \(1\)$/,
    );
    expect(board).toContain('#3 Task 3 (tester)');
    expect(board).toContain('[blocked]');
  });

  it('summarises a report as one progress line for non-TTY output', () => {
    expect(progressLine(report)).toBe(
      '[active] tasks 1/2 done (approved 1, in_progress 1) | implementer:#3 in_progress',
    );
  });
});
