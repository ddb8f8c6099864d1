import { createChangeBatcher } from '@teamkit/team-core/storage';
import type {
  DiffSummary,
  EventView,
  MemberView,
  MessageView,
  PermissionView,
  RunDelta,
  RunHeader,
  RunSnapshot,
  TaskView,
} from '../protocol.js';
import type { RunChange, RunReader, RunStateView } from './run-source.js';

/** Options for {@link openLiveRun}. */
export interface LiveRunOptions {
  reader: RunReader;
  /** How long a burst of file events settles before it is read; default 40 ms. */
  debounceMs?: number;
  /** How often the full picture is checked for what the watcher missed; default 5 s. */
  reconcileMs?: number;
  /** How many of the newest events and messages the snapshot carries; default 500. */
  historyLimit?: number;
  /** Called with an error the live view survived (a watcher error, an unreadable file). */
  onError?: (error: unknown) => void;
}

/** One run, kept in memory and up to date, handing out deltas to its listeners. */
export interface LiveRun {
  readonly runId: string;
  snapshot(): RunSnapshot;
  /** Calls `listener` with every change from now on; returns the unsubscriber. */
  subscribe(listener: (delta: RunDelta) => void): () => void;
  readonly listeners: number;
  /** Reads everything that may have changed and sends what did (also runs on a timer). */
  reconcile(): Promise<void>;
  close(): Promise<void>;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function taskChanges(delta: RunDelta): NonNullable<RunDelta['tasks']> {
  if (delta.tasks === undefined) delta.tasks = { upsert: [], remove: [] };
  return delta.tasks;
}

function newMessages(delta: RunDelta): MessageView[] {
  if (delta.messages === undefined) delta.messages = [];
  return delta.messages;
}

/**
 * Opens the live view of one run: one full read, then the reader's watch of the run's
 * keys, whose changes are debounced and turned into targeted reads (the changed task,
 * the state, the tail of the event log, one inbox). A periodic reconcile compares task
 * stamps and the inboxes and heals any change the watch lost.
 */
export async function openLiveRun(options: LiveRunOptions): Promise<LiveRun> {
  const { reader } = options;
  const debounceMs = options.debounceMs ?? 40;
  const historyLimit = options.historyLimit ?? 500;
  const onError = options.onError ?? (() => {});
  const listeners = new Set<(delta: RunDelta) => void>();

  let header: RunHeader;
  let baseMembers: RunStateView['members'] = [];
  let worktrees: RunStateView['worktrees'] = [];
  let permissions: PermissionView[] = [];
  const tasks = new Map<string, TaskView>();
  const stamps = new Map<string, string>();
  const messages = new Map<string, MessageView>();
  const messageOrder: string[] = [];
  const knownFiles = new Map<string, Set<string>>();
  const unread = new Map<string, number>();
  const diffs = new Map<string, DiffSummary>();
  let events: EventView[] = [];
  let eventCursor: string | undefined;
  let nextSeq = 0;
  let problems: string[] = [];

  const members = (): MemberView[] =>
    baseMembers.map((member) => {
      const diff = diffs.get(member.name);
      return { ...member, unread: unread.get(member.name) ?? 0, ...(diff ? { diff } : {}) };
    });

  const applyState = (view: RunStateView, delta: RunDelta) => {
    if (!same(view.header, header)) delta.header = view.header;
    if (!same(view.members, baseMembers)) delta.members = [];
    if (!same(view.permissions, permissions)) delta.permissions = view.permissions;
    header = view.header;
    baseMembers = view.members;
    worktrees = view.worktrees;
    permissions = view.permissions;
  };

  const applyTask = async (id: string, delta: RunDelta) => {
    let task: TaskView | undefined;
    try {
      task = await reader.readTask(id);
    } catch (error) {
      // Torn or corrupt: keep what was shown; the reconcile reads it again.
      stamps.delete(id);
      onError(error);
      return;
    }
    const before = tasks.get(id);
    if (task === undefined) {
      if (before === undefined) return;
      tasks.delete(id);
      taskChanges(delta).remove.push(id);
      return;
    }
    if (before !== undefined && same(before, task)) return;
    tasks.set(id, task);
    taskChanges(delta).upsert.push(task);
  };

  const applyInbox = async (member: string, delta: RunDelta) => {
    const listing = await reader.listInbox(member);
    if (unread.get(member) !== listing.unread) {
      unread.set(member, listing.unread);
      delta.members = [];
    }
    const known = knownFiles.get(member) ?? new Set<string>();
    knownFiles.set(member, known);
    for (const [id, state] of listing.files) {
      if (known.has(id)) continue;
      const message = await reader.readMessage(member, id, state).catch((error: unknown) => {
        onError(error);
        return undefined;
      });
      if (message === undefined) continue;
      known.add(id);
      const existing = messages.get(id);
      if (existing !== undefined) {
        // A broadcast arrives as one copy per recipient: one entry lists them all.
        if (!existing.to.includes(member)) {
          const merged = { ...existing, to: [...existing.to, member] };
          messages.set(id, merged);
          newMessages(delta).push(merged);
        }
        continue;
      }
      messages.set(id, message);
      messageOrder.push(id);
      newMessages(delta).push(message);
    }
  };

  const applyEvents = async (delta: RunDelta) => {
    const read = await reader.readEventsFrom(eventCursor, nextSeq);
    eventCursor = read.cursor;
    if (read.events.length === 0) return;
    nextSeq = (read.events.at(-1)?.seq ?? nextSeq - 1) + 1;
    events.push(...read.events);
    if (events.length > historyLimit * 2) events = events.slice(-historyLimit);
    delta.events = [...(delta.events ?? []), ...read.events];
  };

  const applyDiffs = async (delta: RunDelta, only?: ReadonlySet<string>) => {
    for (const worktree of worktrees) {
      if (only !== undefined && !only.has(worktree.member)) continue;
      const diff = await reader.readDiff(worktree.path, worktree.base);
      if (diff === undefined || same(diff, diffs.get(worktree.member))) continue;
      diffs.set(worktree.member, diff);
      delta.members = [];
    }
  };

  const finish = (delta: RunDelta) => {
    if (delta.members !== undefined) delta.members = members();
    const keys = Object.keys(delta);
    if (keys.length === 0) return;
    for (const listener of listeners) {
      try {
        listener(delta);
      } catch (error) {
        onError(error);
      }
    }
  };

  let running: Promise<void> = Promise.resolve();
  let closed = false;

  const apply = (changes: RunChange[]) => {
    running = running.then(async () => {
      if (closed) return;
      const delta: RunDelta = {};
      const taskIds = new Set<string>();
      const inboxes = new Set<string>();
      let state = false;
      let log = false;
      if (changes.some((change) => change.kind === 'all')) {
        reconcile().catch(onError);
        return;
      }
      for (const change of changes) {
        if (change.kind === 'task') taskIds.add(change.id);
        else if (change.kind === 'inbox') inboxes.add(change.member);
        else if (change.kind === 'state') state = true;
        else log = true;
      }
      try {
        if (state) applyState(await reader.readState(), delta);
        for (const id of taskIds) await applyTask(id, delta);
        for (const member of inboxes) await applyInbox(member, delta);
        if (log) await applyEvents(delta);
        // A member's task moved: its worktree likely changed too (a commit, a fix).
        const owners = new Set(
          (delta.tasks?.upsert ?? []).flatMap((task) => (task.owner ? [task.owner] : [])),
        );
        if (owners.size > 0) await applyDiffs(delta, owners);
      } catch (error) {
        onError(error);
      }
      finish(delta);
    });
  };

  const batcher = createChangeBatcher<RunChange>({
    delayMs: debounceMs,
    keyOf: (change) => JSON.stringify(change),
    deliver: apply,
    onError,
  });
  const queue = (changes: RunChange[]) => {
    for (const change of changes) batcher.add(change);
  };

  const unwatch = await reader.watch(queue, onError);

  // The task files' stamps are taken with the first read, so the reconcile that follows it
  // reads again only the tasks whose stamp moved since, plus the state, inboxes and log:
  // nothing that changed meanwhile is lost, and nothing else is read twice.
  running = (async () => {
    const [initial, before] = await Promise.all([reader.readState(), reader.taskStamps()]);
    header = initial.header;
    baseMembers = initial.members;
    worktrees = initial.worktrees;
    permissions = initial.permissions;
    const first = await reader.readTasks();
    problems = first.problems;
    for (const task of first.tasks) if (task.status !== 'deleted') tasks.set(task.id, task);
    // A file that could not be read keeps no stamp: the reconcile tries it again.
    for (const [id, stamp] of before) if (tasks.has(id)) stamps.set(id, stamp);
    for (const member of baseMembers) await applyInbox(member.name, {});
    await applyEvents({});
  })();
  try {
    await running;
  } catch (error) {
    await unwatch();
    throw error;
  }
  // What changed while the page was being read is caught by one reconcile.
  reconcile().catch(onError);
  // Git is slower than the files: the diff summaries follow as a delta.
  running = running.then(async () => {
    const delta: RunDelta = {};
    await applyDiffs(delta).catch(onError);
    finish(delta);
  });

  async function reconcile(): Promise<void> {
    const run = running.then(async () => {
      if (closed) return;
      const delta: RunDelta = {};
      try {
        applyState(await reader.readState(), delta);
        const now = await reader.taskStamps();
        for (const [id, stamp] of now) {
          if (stamps.get(id) === stamp) continue;
          stamps.set(id, stamp);
          await applyTask(id, delta);
        }
        for (const id of [...tasks.keys()]) {
          if (now.has(id)) continue;
          stamps.delete(id);
          await applyTask(id, delta);
        }
        for (const member of baseMembers) await applyInbox(member.name, delta);
        await applyEvents(delta);
        await applyDiffs(delta);
      } catch (error) {
        onError(error);
      }
      finish(delta);
    });
    running = run;
    return run;
  }
  const reconcileTimer = setInterval(() => {
    reconcile().catch(onError);
  }, options.reconcileMs ?? 5_000);
  reconcileTimer.unref();

  return {
    runId: reader.runId,
    get listeners() {
      return listeners.size;
    },
    snapshot() {
      return {
        header,
        members: members(),
        tasks: [...tasks.values()],
        messages: messageOrder
          .slice(-historyLimit)
          .map((id) => messages.get(id))
          .filter((message): message is MessageView => message !== undefined),
        events: events.slice(-historyLimit),
        permissions,
        problems,
      };
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    reconcile,
    async close() {
      closed = true;
      clearInterval(reconcileTimer);
      batcher.stop();
      listeners.clear();
      await unwatch();
      await running.catch(() => {});
    },
  };
}
