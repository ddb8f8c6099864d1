import path from 'node:path';
import {
  createTaskList,
  openRun,
  type PermissionRequest,
  type RuntimeState,
  summarizeRunTasks,
  type Task,
} from '@teamkit/team-core';
import { MessageSchema, TaskSchema, USER_PARTICIPANT } from '@teamkit/team-core/schema';
import {
  findLead,
  listRuns,
  TERMINAL_RUN_STATUSES,
  WORKING_RUN_STATUSES,
} from '@teamkit/team-core/state';
import {
  type EntryState,
  parseDocument,
  readDocument,
  type StoreChange,
  type TeamkitStore,
} from '@teamkit/team-core/storage';
import { createGitRunner } from '@teamkit/team-core/worktree';
import type {
  ActionName,
  DiffSummary,
  EventView,
  MemberView,
  MessageView,
  PermissionView,
  RunHeader,
  RunSourceId,
  RunSummary,
  TaskView,
} from '../protocol.js';

/**
 * The one place the UI reads runs. Everything it knows of Teamkit's storage (which keys
 * a run has, how to read them) lives here and in run-actions.ts, through team-core's
 * store (`TeamkitStore`), so another store or a change of layout changes only these two.
 */

/** What a changed key means for the page; `all` means "something changed: re-read it all". */
export type RunChange =
  | { kind: 'task'; id: string }
  | { kind: 'state' }
  | { kind: 'events' }
  | { kind: 'inbox'; member: string }
  | { kind: 'all' };

/** The run's state as the page shows it. */
export interface RunStateView {
  header: RunHeader;
  members: Omit<MemberView, 'unread' | 'diff'>[];
  permissions: PermissionView[];
  /** Working folders and base commits of members, for the diff summary. */
  worktrees: { member: string; path: string; base: string }[];
}

/** One inbox as listed: which messages it holds (in which state) and how many are unread. */
export interface InboxListing {
  /** Message ids with the state each can be read in. */
  files: Map<string, EntryState>;
  unread: number;
}

/** Reads one run; every method reads only what it names. */
export interface RunReader {
  readonly source: RunSourceId;
  readonly runId: string;
  /**
   * Reports what changed in the run, in batches (a store watch of the run's keys, backed
   * by the store's timed comparison). Resolves to an async disposer.
   */
  watch(
    onChange: (changes: RunChange[]) => void,
    onError: (error: unknown) => void,
  ): Promise<() => Promise<void>>;
  /** What a changed key means; `undefined` for keys the page ignores. */
  classify(change: StoreChange): RunChange | undefined;
  readState(): Promise<RunStateView>;
  /** All tasks (the first read); unreadable files are returned as problems. */
  readTasks(): Promise<{ tasks: TaskView[]; problems: string[] }>;
  /** One task; `undefined` when it is gone or deleted; throws on a torn or corrupt file. */
  readTask(id: string): Promise<TaskView | undefined>;
  /** A stamp per task (size and modification time), to find what a watcher missed. */
  taskStamps(): Promise<Map<string, string>>;
  /** Events after `cursor` of the log (all without one), and the cursor to read from next. */
  readEventsFrom(
    cursor: string | undefined,
    firstSeq: number,
  ): Promise<{ events: EventView[]; cursor: string | undefined }>;
  listInbox(member: string): Promise<InboxListing>;
  /** One message of `member` in `state`; `undefined` when it moved away meanwhile. */
  readMessage(member: string, id: string, state: EntryState): Promise<MessageView | undefined>;
  /** The member's work against its base commit, or `undefined` when git cannot tell. */
  readDiff(worktree: string, base: string): Promise<DiffSummary | undefined>;
}

/** A system whose team runs the UI shows (Teamkit's own runs; others may be added). */
export interface RunSource {
  readonly id: RunSourceId;
  readonly label: string;
  listRuns(): Promise<RunSummary[]>;
  /**
   * A reader of one run's live view (its state, tasks, mail and events, and their changes);
   * throws `RUN_NOT_FOUND` (or `PATH_TRAVERSAL` for a bad id).
   */
  watchRun(runId: string): Promise<RunReader>;
}

const WORKING_ACTIONS: ActionName[] = [
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
  'merge',
  'stopRun',
];

/** Actions a run that finished its work still offers: merging what was approved, and stopping. */
const COMPLETED_ACTIONS: ActionName[] = ['merge', 'stopRun'];

function headerOf(state: RuntimeState): RunHeader {
  const working = WORKING_RUN_STATUSES.includes(state.status);
  const stoppable = !TERMINAL_RUN_STATUSES.includes(state.status) && state.status !== 'deleting';
  const lead = findLead(state);
  return {
    source: 'teamkit',
    runId: state.runId,
    teamName: state.teamName,
    status: state.status,
    ...(state.statusReason === undefined ? {} : { statusReason: state.statusReason }),
    createdAt: state.createdAt,
    updatedAt: state.updatedAt,
    host: state.hostId,
    actingAs: USER_PARTICIPANT,
    actions:
      lead === undefined
        ? []
        : working
          ? [...WORKING_ACTIONS]
          : state.status === 'completed'
            ? [...COMPLETED_ACTIONS]
            : stoppable
              ? ['stopRun']
              : [],
    unavailable: {},
  };
}

function permissionView(request: PermissionRequest): PermissionView {
  return {
    id: request.id,
    member: request.member,
    action: request.action,
    ...(request.path === undefined ? {} : { path: request.path }),
    ...(request.reason === undefined ? {} : { reason: request.reason }),
    requestedAt: request.requestedAt,
  };
}

/** A core task as a card. */
export function taskView(task: Task): TaskView {
  const role = task.metadata?.role;
  return {
    id: task.id,
    subject: task.subject,
    description: task.description,
    status: task.status,
    ...(task.owner === undefined ? {} : { owner: task.owner }),
    blockedBy: task.blockedBy,
    blocks: task.blocks,
    ...(typeof role === 'string' ? { role } : {}),
    ...(task.needsFix === true ? { needsFix: true } : {}),
    ...(task.reviewNote === undefined ? {} : { reviewNote: task.reviewNote }),
    ...(task.blockedReason === undefined ? {} : { blockedReason: task.blockedReason }),
    ...(task.cancelledReason === undefined ? {} : { cancelledReason: task.cancelledReason }),
    createdAt: task.createdAt,
    updatedAt: task.updatedAt,
  };
}

const MESSAGE_NAME =
  /^(?:\.delivering-)?([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.json$/;
const TASK_NAME = /^([1-9][0-9]{0,15})\.json$/;

function parseShortstat(text: string): Omit<DiffSummary, 'commits'> {
  const number = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? 0);
  return {
    files: number(/(\d+) files? changed/),
    insertions: number(/(\d+) insertions?\(\+\)/),
    deletions: number(/(\d+) deletions?\(-\)/),
  };
}

/** Teamkit's runs under one home, read through team-core. */
export function createTeamkitRunSource(options: { home: string; store: TeamkitStore }): RunSource {
  const { home, store } = options;
  const git = createGitRunner();
  // Task counts of runs the runs view lists, recounted only when the tasks folder changed.
  const progressCache = new Map<string, { stamp: number; progress: RunSummary['progress'] }>();

  async function progressOf(runId: string): Promise<RunSummary['progress']> {
    const stamp = (await store.stat(openRun({ home, runId, store }).keys.tasks))?.modifiedAt ?? 0;
    const cached = progressCache.get(runId);
    if (cached !== undefined && cached.stamp === stamp) return cached.progress;
    const { tasks } = await createTaskList({ home, runId, store }).listTasks();
    const { progress } = summarizeRunTasks(tasks);
    progressCache.set(runId, { stamp, progress });
    return progress;
  }

  return {
    id: 'teamkit',
    label: 'Teamkit',
    async listRuns() {
      const listing = await listRuns(home, { store });
      const runs: RunSummary[] = [];
      for (const state of listing.runs) {
        runs.push({
          ...headerOf(state),
          progress: await progressOf(state.runId).catch(() => ({ done: 0, total: 0 })),
          members: state.members.length,
        });
      }
      return runs.sort((a, b) => b.createdAt - a.createdAt);
    },
    async watchRun(runId) {
      const labelOf = (folder: string) => {
        const relative = path.relative(home, folder);
        return relative.startsWith('..') || path.isAbsolute(relative) ? folder : relative;
      };
      const run = openRun({ home, runId, store });
      const { keys } = run;
      await run.state.read();
      const tasks = run.tasks;
      const members = new Set<string>();
      const classify = (change: StoreChange): RunChange | undefined => {
        if (change.key === keys.root || !change.key.startsWith(`${keys.root}/`)) {
          return change.kind === 'unknown' ? { kind: 'all' } : undefined;
        }
        const relative = change.key.slice(keys.root.length + 1).split('/');
        const [first, second, third, fourth] = relative;
        if (relative.length === 1 && first === 'state.json') return { kind: 'state' };
        if (relative.length === 1 && first === 'events.jsonl') return { kind: 'events' };
        if (first === 'tasks' && relative.length === 2) {
          const id = TASK_NAME.exec(second ?? '')?.[1];
          return id === undefined ? undefined : { kind: 'task', id };
        }
        if (first === 'inboxes' && second !== undefined && members.has(second)) {
          if (relative.length === 2 || (third === 'processed' && relative.length <= 4)) {
            if (fourth !== undefined && !MESSAGE_NAME.test(fourth)) return undefined;
            return { kind: 'inbox', member: second };
          }
          if (relative.length === 3 && MESSAGE_NAME.test(third ?? ''))
            return { kind: 'inbox', member: second };
        }
        if (change.kind === 'unknown' && relative.length === 1) return { kind: 'all' };
        return undefined;
      };
      const reader: RunReader = {
        source: 'teamkit',
        runId,
        classify,
        watch(onChange, onError) {
          return store.watch(
            keys.root,
            (changes) => {
              const meant = changes
                .map(classify)
                .filter((change): change is RunChange => change !== undefined);
              if (meant.length > 0) onChange(meant);
            },
            { onError },
          );
        },
        async readState() {
          const state = await run.state.read();
          for (const member of state.members) members.add(member.name);
          return {
            header: headerOf(state),
            members: state.members.map((member) => ({
              name: member.name,
              role: member.role,
              isLead: member.isLead,
              status: member.status,
              ...(member.statusReason === undefined ? {} : { statusReason: member.statusReason }),
              turns: member.turns,
              ...(member.worktreePath === undefined
                ? {}
                : {
                    worktreePath: member.worktreePath,
                    worktreeLabel: labelOf(member.worktreePath),
                  }),
              ...(member.branch === undefined ? {} : { branch: member.branch }),
            })),
            permissions: state.permissionRequests
              .filter((request) => request.status === 'pending')
              .map(permissionView),
            worktrees: state.members.flatMap((member) =>
              member.worktreePath === undefined || member.baseRef === undefined
                ? []
                : [{ member: member.name, path: member.worktreePath, base: member.baseRef }],
            ),
          };
        },
        async readTasks() {
          const listing = await tasks.listTasks();
          return {
            tasks: listing.tasks.map(taskView),
            problems: listing.problems.map((problem) => `${problem.path}: ${problem.message}`),
          };
        },
        async readTask(id) {
          const task = (await readDocument(store, keys.task(id), TaskSchema))?.value;
          return task === undefined || task.status === 'deleted' ? undefined : taskView(task);
        },
        async taskStamps() {
          const stamps = new Map<string, string>();
          for (const name of await store.list(keys.tasks)) {
            const id = TASK_NAME.exec(name)?.[1];
            if (id === undefined) continue;
            const info = await store.stat(keys.task(id));
            if (info !== undefined) stamps.set(id, `${info.size}:${info.modifiedAt}`);
          }
          return stamps;
        },
        async readEventsFrom(cursor, firstSeq) {
          const read = await run.events.readAfter(cursor);
          const events = read.events.map(
            (event, index): EventView => ({
              seq: firstSeq + index,
              at: event.at,
              actor: event.actor,
              type: event.type,
              ...(event.ids === undefined ? {} : { ids: event.ids }),
              ...(event.data === undefined ? {} : { data: event.data }),
            }),
          );
          return { events, cursor: read.cursor };
        },
        async listInbox(member) {
          const inbox = keys.inbox(member);
          const files = new Map<string, EntryState>();
          let unread = 0;
          for (const state of ['unread', 'reserved'] as const) {
            for (const entry of await store.listEntries(inbox, state)) {
              files.set(entry.id, state);
              unread += 1;
            }
          }
          for (const entry of await store.listEntries(inbox, 'processed')) {
            if (!files.has(entry.id)) files.set(entry.id, 'processed');
          }
          return { files, unread };
        },
        async readMessage(member, id, state) {
          const text = await store.readEntry(keys.inbox(member), id, state);
          if (text === undefined) return undefined;
          const message = parseDocument(text, MessageSchema, `${keys.inbox(member)}/${id}`);
          return {
            id: message.messageId,
            from: message.from,
            to: [message.to],
            broadcast: message.broadcast === true,
            kind: message.kind,
            ...(message.summary === undefined ? {} : { summary: message.summary }),
            body: message.body,
            at: message.timestamp,
          };
        },
        async readDiff(worktree, base) {
          try {
            const commits = await git.run(['rev-list', '--count', `${base}..HEAD`], {
              cwd: worktree,
            });
            const stat = await git.run(['diff', '--shortstat', base], { cwd: worktree });
            return { commits: Number(commits.stdout.trim()) || 0, ...parseShortstat(stat.stdout) };
          } catch {
            return undefined;
          }
        },
      };
      return reader;
    },
  };
}
