/**
 * The shapes the `team ui` server sends to the page and accepts from it. They are the
 * page's own view of a run, decoupled from team-core's documents, so the page does not
 * change when the core's storage does; only the run source maps one to the other.
 */

/** Where a run comes from: Teamkit's own runs, or a team Claude Code runs itself. */
export type RunSourceId = 'teamkit' | 'claude-code';

/** A task status as the page shows it (the core's task statuses). */
export type TaskStatusView =
  | 'pending'
  | 'claimed'
  | 'in_progress'
  | 'completed'
  | 'in_review'
  | 'approved'
  | 'blocked'
  | 'cancelled'
  | 'deleted';

/** One task card. */
export interface TaskView {
  id: string;
  subject: string;
  description: string;
  status: TaskStatusView;
  owner?: string;
  blockedBy: string[];
  blocks: string[];
  /** The role expected to take it (`metadata.role`). */
  role?: string;
  /** Changes were requested in review and the task waits for its owner to redo it. */
  needsFix?: boolean;
  reviewNote?: string;
  blockedReason?: string;
  cancelledReason?: string;
  /** When the task was created and last changed; absent where the source does not record it. */
  createdAt?: number;
  updatedAt?: number;
}

/** What a member's worktree holds against the commit it started from. */
export interface DiffSummary {
  commits: number;
  files: number;
  insertions: number;
  deletions: number;
}

/** One member of a run. */
export interface MemberView {
  name: string;
  role: string;
  isLead: boolean;
  status: string;
  statusReason?: string;
  /** Agent turns taken; absent where the source does not count them. */
  turns?: number;
  worktreePath?: string;
  /** The worktree as shown: relative to the Teamkit home when it lies inside it. */
  worktreeLabel?: string;
  branch?: string;
  /** Unread (and reserved) messages in the member's inbox. */
  unread: number;
  diff?: DiffSummary;
  /** Further facts the source knows of the member (model, pane, folder…), in order. */
  facts?: { label: string; value: string }[];
}

/** One message; a broadcast is one entry with every recipient. */
export interface MessageView {
  id: string;
  from: string;
  to: string[];
  broadcast: boolean;
  kind: string;
  summary?: string;
  body: string;
  at: number;
  /**
   * Where the source keeps only messages not yet delivered (Claude Code's inboxes): true
   * while it waits in the recipient's inbox, false once it was taken from there.
   */
  waiting?: boolean;
}

/** One line of the run's event log. */
export interface EventView {
  /** Position in the log, so the page can tell new from known. */
  seq: number;
  at: number;
  actor: string;
  type: string;
  ids?: string[];
  data?: Record<string, unknown>;
}

/** A member's request to act outside its worktree, waiting for the lead. */
export interface PermissionView {
  id: string;
  member: string;
  action: string;
  path?: string;
  reason?: string;
  requestedAt: number;
}

/** Every action the page can ask for; a source lists those it supports. */
export const ACTION_NAMES = [
  'createTask',
  'send',
  'approve',
  'requestChanges',
  'block',
  'unblock',
  'cancel',
  'reassign',
  'answerPermission',
  'requestShutdown',
  'stopRun',
  'merge',
] as const;

/** An action name. */
export type ActionName = (typeof ACTION_NAMES)[number];

/** The views of a run, in keyboard order (keys 1–5). */
export const RUN_VIEWS = ['board', 'members', 'messages', 'timeline', 'permissions'] as const;
/** A view of a run. */
export type RunViewName = (typeof RUN_VIEWS)[number];

/** The board's columns, in order. */
export type BoardColumnId = 'todo' | 'in-progress' | 'review' | 'done' | 'approved';

/** What the message and new-task forms ask for, where a source takes less than Teamkit. */
export interface RunForms {
  send: { broadcast: boolean; kinds: boolean; summary: boolean };
  createTask: { dependencies: boolean; role: boolean };
}

/** A run's heading: who, what state, and what the page may do with it. */
export interface RunHeader {
  source: RunSourceId;
  runId: string;
  teamName: string;
  status: string;
  statusReason?: string;
  createdAt: number;
  updatedAt: number;
  /** The host that runs the members (`process`, `opencode`, …). */
  host: string;
  /** Who the page acts as: `user`, the person, with an inbox of its own and the lead's rights. */
  actingAs?: string;
  /** Actions this run accepts now. */
  actions: ActionName[];
  /** Actions shown but not available yet, with the reason to show. */
  unavailable: Partial<Record<ActionName, string>>;
  /**
   * Every action a run of this source can ever take; the page offers no control for the
   * others. Absent: all of {@link ACTION_NAMES}.
   */
  offers?: ActionName[];
  /** The views the source can fill; absent: all of {@link RUN_VIEWS}. */
  views?: RunViewName[];
  /** The board columns the source's statuses map to; absent: all five. */
  columns?: BoardColumnId[];
  /** What the forms ask for; absent: everything (Teamkit). */
  forms?: RunForms;
  /** What the page must say about what it shows (what cannot be read, warnings), one line each. */
  notes?: string[];
}

/** One line of the runs view. */
export interface RunSummary extends RunHeader {
  progress: { done: number; total: number };
  members: number;
}

/** Everything the run page shows, sent when it connects. */
export interface RunSnapshot {
  header: RunHeader;
  members: MemberView[];
  tasks: TaskView[];
  messages: MessageView[];
  events: EventView[];
  permissions: PermissionView[];
  /** Files that could not be read, reported and left in place. */
  problems: string[];
}

/** What changed since the last snapshot or delta; absent fields did not change. */
export interface RunDelta {
  header?: RunHeader;
  /** The whole member list (it is small) when any member changed. */
  members?: MemberView[];
  tasks?: { upsert: TaskView[]; remove: string[] };
  /** New messages. */
  messages?: MessageView[];
  /** New events, in order. */
  events?: EventView[];
  permissions?: PermissionView[];
  problems?: string[];
}

/** The answer to an action: what it did, or the TeamkitError it raised. */
export type ActionResponse =
  | { ok: true; result?: unknown }
  | { ok: false; error: { code: string; message: string } };
