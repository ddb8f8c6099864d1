/** What a command of the table is run against. */
export interface CommandTargets {
  runId: string;
  /** An existing task id of the run. */
  taskId: string;
  /** An unread message id in the lead's inbox. */
  messageId: string;
  /** A project folder (for `--project`). */
  project: string;
}

/** One `team` command of the hostile-input suite. */
export interface TableCommand {
  /** How the suite names it. */
  name: string;
  args: (targets: CommandTargets) => string[];
  /**
   * `one-shot` (the default) must finish; `until-stopped` (watch, supervise) keeps
   * running by design and must print only valid JSON lines until its timeout ends it.
   */
  runs?: 'one-shot' | 'until-stopped';
  /** Changes the run or the home for good (run last, and only where a row allows it). */
  destructive?: boolean;
}

/**
 * Every `team` command, as the user runs it against one run. The hostile-input suite runs
 * each of them, with a timeout, against every planted-file row; a new command gets a line
 * here.
 */
export const COMMANDS: readonly TableCommand[] = [
  { name: 'teams', args: () => ['teams'] },
  { name: 'teams --project', args: (t) => ['teams', '--project', t.project] },
  { name: 'doctor', args: () => ['doctor'] },
  { name: 'doctor --project', args: (t) => ['doctor', '--project', t.project] },
  { name: 'run list', args: () => ['run', 'list'] },
  { name: 'run status', args: () => ['run', 'status'] },
  { name: 'run status <run>', args: (t) => ['run', 'status', t.runId] },
  { name: 'board', args: (t) => ['board', t.runId] },
  { name: 'dashboard --once', args: (t) => ['dashboard', t.runId, '--once'] },
  { name: 'task list', args: (t) => ['task', 'list', t.runId] },
  { name: 'task list --ready', args: (t) => ['task', 'list', t.runId, '--ready'] },
  { name: 'task get', args: (t) => ['task', 'get', t.runId, t.taskId] },
  { name: 'inbox', args: (t) => ['inbox', t.runId] },
  { name: 'inbox --wait', args: (t) => ['inbox', t.runId, '--wait', '1'] },
  { name: 'worktree list', args: () => ['worktree', 'list'] },
  { name: 'run report', args: (t) => ['run', 'report', t.runId] },
  { name: 'run goal', args: (t) => ['run', 'goal', t.runId] },
  { name: 'run merge --dry-run', args: (t) => ['run', 'merge', t.runId, '--dry-run'] },
  { name: 'permission list', args: (t) => ['permission', 'list', t.runId] },
  { name: '--version', args: () => ['--version'] },
  { name: 'watch', args: (t) => ['watch', t.runId], runs: 'until-stopped' },
  { name: 'send', args: (t) => ['send', t.runId, '--to', 'w1', 'hello'], destructive: true },
  { name: 'ack', args: (t) => ['ack', t.runId, t.messageId], destructive: true },
  { name: 'task create', args: (t) => ['task', 'create', t.runId, 'More'], destructive: true },
  { name: 'task claim', args: (t) => ['task', 'claim', t.runId, t.taskId], destructive: true },
  { name: 'task start', args: (t) => ['task', 'start', t.runId, t.taskId], destructive: true },
  {
    name: 'task block',
    args: (t) => ['task', 'block', t.runId, t.taskId, '--reason', 'x'],
    destructive: true,
  },
  { name: 'task unblock', args: (t) => ['task', 'unblock', t.runId, t.taskId], destructive: true },
  {
    name: 'task complete',
    args: (t) => ['task', 'complete', t.runId, t.taskId],
    destructive: true,
  },
  { name: 'task review', args: (t) => ['task', 'review', t.runId, t.taskId], destructive: true },
  {
    name: 'task request-changes',
    args: (t) => ['task', 'request-changes', t.runId, t.taskId, '--note', 'x'],
    destructive: true,
  },
  { name: 'task release', args: (t) => ['task', 'release', t.runId, t.taskId], destructive: true },
  {
    name: 'task cancel',
    args: (t) => ['task', 'cancel', t.runId, t.taskId, '--reason', 'x'],
    destructive: true,
  },
  { name: 'task delete', args: (t) => ['task', 'delete', t.runId, t.taskId], destructive: true },
  { name: 'task approve', args: (t) => ['task', 'approve', t.runId, t.taskId], destructive: true },
  {
    name: 'run goal set',
    args: (t) => ['run', 'goal', t.runId, 'Ship it', '--criterion', 'works'],
    destructive: true,
  },
  {
    name: 'run criteria evidence',
    args: (t) => ['run', 'criteria', 'evidence', t.runId, '1', '--task', t.taskId],
    destructive: true,
  },
  {
    name: 'run criteria waive',
    args: (t) => ['run', 'criteria', 'waive', t.runId, '1', '--reason', 'x'],
    destructive: true,
  },
  {
    name: 'shutdown request',
    args: (t) => ['shutdown', 'request', t.runId, 'w1'],
    destructive: true,
  },
  { name: 'run merge', args: (t) => ['run', 'merge', t.runId], destructive: true },
  { name: 'run resume', args: (t) => ['run', 'resume', t.runId], destructive: true },
  {
    name: 'run supervise',
    args: (t) => ['run', 'supervise', t.runId],
    runs: 'until-stopped',
    destructive: true,
  },
  { name: 'run stop', args: (t) => ['run', 'stop', t.runId, '--force'], destructive: true },
  { name: 'run sweep', args: () => ['run', 'sweep'], destructive: true },
  { name: 'worktree prune', args: () => ['worktree', 'prune'], destructive: true },
  { name: 'tmux sweep', args: () => ['tmux', 'sweep'], destructive: true },
];
