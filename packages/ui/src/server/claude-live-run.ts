import { type ClaudeTeamSource, type ClaudeTeamView, claudeTeamPaths } from '@teamkit/claude-code';
import type {
  MemberView,
  MessageView,
  RunDelta,
  RunHeader,
  RunSnapshot,
  TaskView,
} from '../protocol.js';
import {
  claudeMemberView,
  claudeProblems,
  claudeRunHeader,
  claudeTaskView,
  claudeWaitingMessages,
  unreadableTaskIds,
} from './claude-team-views.js';
import type { LiveRun } from './live-run.js';

/** Options of {@link openClaudeLiveRun}. */
export interface ClaudeLiveRunOptions {
  source: ClaudeTeamSource;
  /** The team's folder name. */
  team: string;
  /** How long file events settle before the team is read again; default 50 ms. */
  debounceMs?: number;
  /** How often the team is read again without an event (lost events, a lead that died); default 2 s. */
  reconcileMs?: number;
  /** How many messages the page is sent at most; default 500. */
  historyLimit?: number;
  onError?: (error: unknown) => void;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The live view of one Claude Code team, kept by `@teamkit/claude-code`'s watch (file
 * events debounced, a periodic read that heals lost events and notices a lead that died):
 * each new reading of the team is compared with the last, and what changed goes to the
 * pages as a delta. A task file that is torn right now keeps the card it had; an inbox
 * entry that Claude Code delivered stays listed, marked as no longer waiting.
 */
export async function openClaudeLiveRun(options: ClaudeLiveRunOptions): Promise<LiveRun> {
  const { source, team } = options;
  const historyLimit = options.historyLimit ?? 500;
  const onError = options.onError ?? (() => {});
  const taskListFolder = claudeTeamPaths(source.configDir, team).taskListFolder;
  const listeners = new Set<(delta: RunDelta) => void>();

  let header: RunHeader;
  let members: MemberView[] = [];
  let problems: string[] = [];
  const tasks = new Map<string, TaskView>();
  const messages = new Map<string, MessageView>();
  const messageOrder: string[] = [];

  const apply = (view: ClaudeTeamView): RunDelta => {
    const delta: RunDelta = {};
    const nextHeader = claudeRunHeader(view);
    if (!same(nextHeader, header)) delta.header = nextHeader;
    header = nextHeader;
    const nextMembers = view.members.map((member) => claudeMemberView(member, view));
    if (!same(nextMembers, members)) delta.members = nextMembers;
    members = nextMembers;
    const nextProblems = claudeProblems(view);
    if (!same(nextProblems, problems)) delta.problems = nextProblems;
    problems = nextProblems;

    const upsert: TaskView[] = [];
    const remove: string[] = [];
    const seen = new Set<string>();
    for (const task of view.tasks) {
      const card = claudeTaskView(task);
      seen.add(card.id);
      if (same(tasks.get(card.id), card)) continue;
      tasks.set(card.id, card);
      upsert.push(card);
    }
    // A file torn by Claude Code's in-place rewrite is not a task gone: keep its card.
    const torn = unreadableTaskIds(view, taskListFolder);
    for (const id of [...tasks.keys()]) {
      if (seen.has(id) || torn.has(id)) continue;
      tasks.delete(id);
      remove.push(id);
    }
    if (upsert.length > 0 || remove.length > 0) delta.tasks = { upsert, remove };

    const changed: MessageView[] = [];
    const waiting = new Set<string>();
    for (const message of claudeWaitingMessages(view)) {
      waiting.add(message.id);
      if (same(messages.get(message.id), message)) continue;
      if (!messages.has(message.id)) messageOrder.push(message.id);
      messages.set(message.id, message);
      changed.push(message);
    }
    for (const [id, message] of messages) {
      if (!message.waiting || waiting.has(id)) continue;
      const delivered = { ...message, waiting: false };
      messages.set(id, delivered);
      changed.push(delivered);
    }
    while (messageOrder.length > historyLimit * 2) {
      const oldest = messageOrder.shift();
      if (oldest !== undefined) messages.delete(oldest);
    }
    if (changed.length > 0) delta.messages = changed;
    return delta;
  };

  const emit = (delta: RunDelta) => {
    if (Object.keys(delta).length === 0) return;
    for (const listener of listeners) {
      try {
        listener(delta);
      } catch (error) {
        onError(error);
      }
    }
  };

  const gone = () => {
    const delta: RunDelta = {};
    header = {
      ...header,
      status: 'finished',
      statusReason: 'Its team folder and task list are gone.',
      actions: [],
      unavailable: {
        createTask: 'The team’s files are gone.',
        send: 'The team’s files are gone.',
      },
    };
    delta.header = header;
    if (tasks.size > 0) delta.tasks = { upsert: [], remove: [...tasks.keys()] };
    tasks.clear();
    if (members.length > 0) delta.members = [];
    members = [];
    return delta;
  };

  // The first reading gives the page its snapshot and a typed error for a team not there.
  apply(await source.readTeam(team));
  let closed = false;
  const watch = source.watch(
    (change) => {
      if (closed) return;
      emit(change.type === 'removed' ? gone() : apply(change.team));
    },
    {
      team,
      onError,
      ...(options.debounceMs === undefined ? {} : { debounceMs: options.debounceMs }),
      ...(options.reconcileMs === undefined ? {} : { reconcileMs: options.reconcileMs }),
    },
  );

  return {
    runId: team,
    get listeners() {
      return listeners.size;
    },
    snapshot(): RunSnapshot {
      return {
        header,
        members,
        tasks: [...tasks.values()],
        messages: messageOrder
          .slice(-historyLimit)
          .map((id) => messages.get(id))
          .filter((message): message is MessageView => message !== undefined),
        events: [],
        permissions: [],
        problems,
      };
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async reconcile() {
      if (closed) return;
      try {
        emit(apply(await source.readTeam(team)));
      } catch (error) {
        onError(error);
      }
    },
    async close() {
      closed = true;
      listeners.clear();
      watch.close();
      await watch.ready.catch(() => {});
    },
  };
}
