import { createMailbox } from '../mailbox/index.js';
import { summarizeRunTasks } from '../report/run-summary.js';
import type { MemberStatus, RunEvent, RuntimeState, Task, TaskStatus } from '../schema/index.js';
import { readRunState } from '../state/index.js';
import {
  type DocumentProblem,
  type LockOptions,
  readRunEvents,
  runKeys,
  type TeamkitStore,
} from '../storage/index.js';
import { createTaskList } from '../tasklist/index.js';

/** One member as a dashboard shows it. */
export interface MemberStatusLine {
  name: string;
  role: string;
  isLead: boolean;
  status: MemberStatus;
  sessionId?: string;
  worktreePath?: string;
  branch?: string;
  unread: number;
  /** The task the member owns and is working on (claimed, in progress, or in review). */
  currentTask?: { id: string; subject: string; status: TaskStatus };
  /** The newest message the member sent or received, from the event log (no body). */
  lastMessage?: { at: number; from: string; to: string[]; kind?: string };
  turns: number;
}

/** Everything a dashboard of one run needs, read in one pass. */
export interface RunStatusReport {
  runId: string;
  teamName: string;
  status: RuntimeState['status'];
  statusReason?: string;
  createdAt: number;
  updatedAt: number;
  members: MemberStatusLine[];
  tasks: Task[];
  tasksByStatus: Record<TaskStatus, number>;
  /** Tasks done (completed or approved) out of all tasks that are not deleted or cancelled. */
  progress: { done: number; total: number };
  recentEvents: RunEvent[];
  /** Unreadable files that were reported and left in place. */
  problems: DocumentProblem[];
  /** Messages stored in the run (each copy counts) and turns taken. */
  counters: { messagesSent: number; turns: number };
}

/** Where to read a run's status from. */
export interface RunStatusOptions {
  home: string;
  runId: string;
  /** Where the run's state lives (required: the front door chose it). */
  store: TeamkitStore;
  now?: () => number;
  lock?: LockOptions;
  /** How many of the newest events to include (default 20). */
  recentEvents?: number;
}

/** Reads run state, tasks, unread counts and the event log into one report; it writes nothing. */
export async function collectRunStatus(options: RunStatusOptions): Promise<RunStatusReport> {
  const { store } = options;
  const seams = {
    home: options.home,
    runId: options.runId,
    store,
    now: options.now,
    lock: options.lock,
  };
  const state = await readRunState(options.home, options.runId, {
    store,
    now: options.now,
    lock: options.lock,
  });
  const mailbox = createMailbox(seams);
  const listing = await createTaskList(seams).listTasks();
  const { events } = await readRunEvents(store, runKeys(options.runId).events);
  const problems: DocumentProblem[] = [...listing.problems];

  const { tasksByStatus, progress } = summarizeRunTasks(listing.tasks);

  const lastMessageOf = new Map<string, MemberStatusLine['lastMessage']>();
  for (const entry of events) {
    if (entry.type !== 'message.sent') continue;
    const to = Array.isArray(entry.data?.delivered) ? (entry.data.delivered as string[]) : [];
    const line = {
      at: entry.at,
      from: entry.actor,
      to,
      ...(typeof entry.data?.kind === 'string' ? { kind: entry.data.kind } : {}),
    };
    for (const name of [entry.actor, ...to]) lastMessageOf.set(name, line);
  }

  const members: MemberStatusLine[] = [];
  for (const member of state.members) {
    const unread = await mailbox.listUnread(member.name);
    problems.push(...unread.problems);
    const current = listing.tasks.find(
      (task) =>
        task.owner === member.name && ['claimed', 'in_progress', 'in_review'].includes(task.status),
    );
    members.push({
      name: member.name,
      role: member.role,
      isLead: member.isLead,
      status: member.status,
      ...(member.sessionId === undefined ? {} : { sessionId: member.sessionId }),
      ...(member.worktreePath === undefined ? {} : { worktreePath: member.worktreePath }),
      ...(member.branch === undefined ? {} : { branch: member.branch }),
      unread: unread.messages.length,
      ...(current === undefined
        ? {}
        : { currentTask: { id: current.id, subject: current.subject, status: current.status } }),
      ...(lastMessageOf.has(member.name) ? { lastMessage: lastMessageOf.get(member.name) } : {}),
      turns: member.turns,
    });
  }

  return {
    runId: state.runId,
    teamName: state.teamName,
    status: state.status,
    ...(state.statusReason === undefined ? {} : { statusReason: state.statusReason }),
    createdAt: state.createdAt,
    updatedAt: state.updatedAt,
    members,
    tasks: listing.tasks,
    tasksByStatus,
    progress,
    recentEvents: events.slice(-(options.recentEvents ?? 20)),
    problems,
    counters: { messagesSent: await mailbox.countMessagesSent(), turns: state.counters.turns },
  };
}
