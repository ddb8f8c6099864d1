import { open } from 'node:fs/promises';
import path from 'node:path';
import {
  createGitRunner,
  createPathStore,
  createTaskList,
  DONE_TASK_STATUSES,
  findLead,
  listRuns,
  MessageSchema,
  type PermissionRequest,
  RunEventSchema,
  type RuntimeState,
  readRunState,
  runPaths,
  type Task,
  TaskSchema,
  TERMINAL_RUN_STATUSES,
  USER_PARTICIPANT,
  WORKING_RUN_STATUSES,
} from '@teamkit/team-core';
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
 * The one place the UI reads runs. Everything it knows of Teamkit's storage (which
 * files a run has, how to read them) lives here and in run-actions.ts, through
 * team-core's public API, so a change of the core's storage changes only these two.
 */

/** What a changed file means for the page. */
export type RunChange =
  | { kind: 'task'; id: string }
  | { kind: 'state' }
  | { kind: 'events' }
  | { kind: 'inbox'; member: string };

/** The run's state as the page shows it. */
export interface RunStateView {
  header: RunHeader;
  members: Omit<MemberView, 'unread' | 'diff'>[];
  permissions: PermissionView[];
  /** Working folders and base commits of members, for the diff summary. */
  worktrees: { member: string; path: string; base: string }[];
}

/** One inbox as listed: which message files it holds and how many are unread. */
export interface InboxListing {
  /** Message ids with the file each can be read from. */
  files: Map<string, string>;
  unread: number;
}

/** Reads one run; every method reads only what it names. */
export interface RunReader {
  readonly source: RunSourceId;
  readonly runId: string;
  /** The folder whose changes the live view watches. */
  readonly root: string;
  /** What a changed path inside {@link root} means; `undefined` for files the page ignores. */
  classify(file: string): RunChange | undefined;
  /** True for paths the watcher never needs to see (temp files, locks, logs). */
  ignore(file: string): boolean;
  readState(): Promise<RunStateView>;
  /** All tasks (the first read); unreadable files are returned as problems. */
  readTasks(): Promise<{ tasks: TaskView[]; problems: string[] }>;
  /** One task; `undefined` when it is gone or deleted; throws on a torn or corrupt file. */
  readTask(id: string): Promise<TaskView | undefined>;
  /** A stamp per task file (size and mtime), to find what a watcher missed. */
  taskStamps(): Promise<Map<string, string>>;
  /** Events after byte `offset` of the log, and the offset to read from next time. */
  readEventsFrom(
    offset: number,
    firstSeq: number,
  ): Promise<{ events: EventView[]; offset: number }>;
  listInbox(member: string): Promise<InboxListing>;
  /** One message file; `undefined` when it moved away meanwhile. */
  readMessage(file: string): Promise<MessageView | undefined>;
  /** The member's work against its base commit, or `undefined` when git cannot tell. */
  readDiff(worktree: string, base: string): Promise<DiffSummary | undefined>;
}

/** A system whose team runs the UI shows (Teamkit's own runs; others may be added). */
export interface RunSource {
  readonly id: RunSourceId;
  readonly label: string;
  listRuns(): Promise<RunSummary[]>;
  /** A reader of one run; throws `RUN_NOT_FOUND` (or `PATH_TRAVERSAL` for a bad id). */
  openRun(runId: string): Promise<RunReader>;
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

const MESSAGE_FILE =
  /^(?:\.delivering-)?([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.json$/;
const TASK_FILE = /^([1-9][0-9]{0,15})\.json$/;

function parseShortstat(text: string): Omit<DiffSummary, 'commits'> {
  const number = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? 0);
  return {
    files: number(/(\d+) files? changed/),
    insertions: number(/(\d+) insertions?\(\+\)/),
    deletions: number(/(\d+) deletions?\(-\)/),
  };
}

/** Teamkit's runs under one home, read through team-core. */
export function createTeamkitRunSource(options: { home: string }): RunSource {
  const { home } = options;
  const store = createPathStore();
  const git = createGitRunner();
  // Task counts of runs the runs view lists, recounted only when the tasks folder changed.
  const progressCache = new Map<string, { stamp: number; progress: RunSummary['progress'] }>();

  async function progressOf(runId: string): Promise<RunSummary['progress']> {
    const tasksFolder = runPaths(home, runId).tasks;
    const stamp = (await store.stat(tasksFolder))?.mtimeMs ?? 0;
    const cached = progressCache.get(runId);
    if (cached !== undefined && cached.stamp === stamp) return cached.progress;
    const { tasks } = await createTaskList({ home, runId, store }).listTasks();
    const counted = tasks.filter((task) => task.status !== 'cancelled');
    const progress = {
      done: counted.filter((task) => DONE_TASK_STATUSES.includes(task.status)).length,
      total: counted.length,
    };
    progressCache.set(runId, { stamp, progress });
    return progress;
  }

  return {
    id: 'teamkit',
    label: 'Teamkit',
    async listRuns() {
      const listing = await listRuns(home);
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
    async openRun(runId) {
      const labelOf = (folder: string) => {
        const relative = path.relative(home, folder);
        return relative.startsWith('..') || path.isAbsolute(relative) ? folder : relative;
      };
      const paths = runPaths(home, runId);
      await readRunState(home, runId);
      const tasks = createTaskList({ home, runId, store });
      const inboxOf = new Map<string, string>();
      const reader: RunReader = {
        source: 'teamkit',
        runId,
        root: paths.root,
        classify(file) {
          const relative = path.relative(paths.root, file).split(path.sep);
          const [first, second, third, fourth] = relative;
          if (relative.length === 1 && first === 'state.json') return { kind: 'state' };
          if (relative.length === 1 && first === 'events.jsonl') return { kind: 'events' };
          if (first === 'tasks' && relative.length === 2) {
            const id = TASK_FILE.exec(second ?? '')?.[1];
            return id === undefined ? undefined : { kind: 'task', id };
          }
          if (first === 'inboxes' && second !== undefined && inboxOf.has(second)) {
            if (relative.length === 2 || (third === 'processed' && relative.length <= 4)) {
              if (fourth !== undefined && !MESSAGE_FILE.test(fourth)) return undefined;
              return { kind: 'inbox', member: second };
            }
            if (relative.length === 3 && MESSAGE_FILE.test(third ?? ''))
              return { kind: 'inbox', member: second };
          }
          return undefined;
        },
        ignore(file) {
          const name = path.basename(file);
          const relative = path.relative(paths.root, file).split(path.sep);
          return (
            name.startsWith('.tmp-') ||
            name.endsWith('.lock') ||
            name.endsWith('.tmp') ||
            (relative.length >= 1 && ['logs', 'presence'].includes(relative[0] ?? ''))
          );
        },
        async readState() {
          const state = await readRunState(home, runId, { store });
          for (const member of state.members) inboxOf.set(member.name, paths.inbox(member.name));
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
          const task = await store.readDocument(paths.task(id), TaskSchema);
          return task === undefined || task.status === 'deleted' ? undefined : taskView(task);
        },
        async taskStamps() {
          const stamps = new Map<string, string>();
          for (const name of await store.list(paths.tasks)) {
            const id = TASK_FILE.exec(name)?.[1];
            if (id === undefined) continue;
            const info = await store.stat(paths.task(id));
            if (info !== undefined) stamps.set(id, `${info.size}:${info.mtimeMs}`);
          }
          return stamps;
        },
        async readEventsFrom(offset, firstSeq) {
          return readEventLines(paths.events, offset, firstSeq);
        },
        async listInbox(member) {
          const inbox = inboxOf.get(member) ?? paths.inbox(member);
          const files = new Map<string, string>();
          let unread = 0;
          for (const name of await store.list(inbox)) {
            const id = MESSAGE_FILE.exec(name)?.[1];
            if (id === undefined) continue;
            files.set(id, path.join(inbox, name));
            unread += 1;
          }
          const processed = path.join(inbox, 'processed');
          for (const name of await store.list(processed)) {
            const id = MESSAGE_FILE.exec(name)?.[1];
            if (id !== undefined && !files.has(id)) files.set(id, path.join(processed, name));
          }
          return { files, unread };
        },
        async readMessage(file) {
          const message = await store.readDocument(file, MessageSchema).catch((error: unknown) => {
            if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
            throw error;
          });
          if (message === undefined) return undefined;
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

/** Reads whole lines of the event log after `offset`; a torn last line waits for its end. */
async function readEventLines(
  file: string,
  offset: number,
  firstSeq: number,
): Promise<{ events: EventView[]; offset: number }> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { events: [], offset };
    throw error;
  }
  try {
    const { size } = await handle.stat();
    // A log shorter than what was read was replaced: read it again from the start.
    const from = size < offset ? 0 : offset;
    if (size === from) return { events: [], offset: from };
    const buffer = Buffer.alloc(size - from);
    await handle.read(buffer, 0, buffer.length, from);
    const end = buffer.lastIndexOf(0x0a);
    if (end === -1) return { events: [], offset: from };
    const events: EventView[] = [];
    let seq = firstSeq;
    for (const line of buffer.subarray(0, end).toString('utf8').split('\n')) {
      if (line.trim() === '') continue;
      try {
        const parsed = RunEventSchema.safeParse(JSON.parse(line));
        if (!parsed.success) continue;
        const event = parsed.data;
        events.push({
          seq,
          at: event.at,
          actor: event.actor,
          type: event.type,
          ...(event.ids === undefined ? {} : { ids: event.ids }),
          ...(event.data === undefined ? {} : { data: event.data }),
        });
        seq += 1;
      } catch {
        // A line someone else corrupted is skipped, as the core's reader does.
      }
    }
    return { events, offset: from + end + 1 };
  } finally {
    await handle.close();
  }
}
