import { createHash } from 'node:crypto';
import path from 'node:path';
import {
  type ClaudeInboxEntry,
  type ClaudeTask,
  type ClaudeTeamMember,
  type ClaudeTeamSummary,
  type ClaudeTeamView,
  DEFAULT_CLAUDE_SENDER,
  sanitizePathComponent,
} from '@teamkit/claude-code';
import type {
  ActionName,
  MemberView,
  MessageView,
  RunHeader,
  RunSummary,
  TaskView,
} from '../protocol.js';

/**
 * How a Claude Code team reads in the page's shapes. Only what the files hold is shown:
 * Claude Code's three task statuses on three of the board's columns, the members of the
 * team config, the entries still waiting in inboxes. Pure functions of `@teamkit/claude-code`'s
 * views; the live view (claude-live-run.ts) turns their differences into deltas.
 */

/** The two writes Teamkit makes into a Claude Code team; Claude Code owns everything else. */
export const CLAUDE_ACTIONS: ActionName[] = ['createTask', 'send'];

/** Said on every Claude Code team's page: what its files cannot tell. */
export const CLAUDE_HISTORY_NOTE =
  'Message history is not in Claude Code’s inbox files: Claude Code empties an inbox once it delivers the entries. Shown are the entries waiting now, and those this server saw waiting before they were delivered.';

function headerOf(view: ClaudeTeamSummary): RunHeader {
  const ended = view.liveness.status === 'finished';
  const reason = ended
    ? `The team has ended (${view.liveness.reason}); nothing would read a write.`
    : undefined;
  return {
    source: 'claude-code',
    runId: view.name,
    teamName: 'Claude Code team',
    status: view.liveness.status,
    statusReason: view.liveness.reason,
    createdAt: view.createdAt ?? view.updatedAt,
    updatedAt: view.updatedAt,
    host: view.version === undefined ? 'Claude Code' : `Claude Code ${view.version}`,
    actingAs: DEFAULT_CLAUDE_SENDER,
    actions: ended ? [] : [...CLAUDE_ACTIONS],
    unavailable: reason === undefined ? {} : { createTask: reason, send: reason },
    offers: [...CLAUDE_ACTIONS],
    views: ['board', 'members', 'messages'],
    columns: ['todo', 'in-progress', 'done'],
    forms: {
      send: { broadcast: false, kinds: false, summary: true },
      createTask: { dependencies: false, role: false },
    },
  };
}

/** One line of the runs view for a Claude Code team. */
export function claudeRunSummary(view: ClaudeTeamSummary): RunSummary {
  const { pending, in_progress, completed } = view.taskCounts;
  return {
    ...headerOf(view),
    progress: { done: completed, total: pending + in_progress + completed },
    members: view.memberCount,
  };
}

/** The heading of a Claude Code team's page, with what it must say about the team. */
export function claudeRunHeader(view: ClaudeTeamView): RunHeader {
  const orphans = view.inboxes.filter((inbox) => inbox.orphan && inbox.pending.length > 0);
  return {
    ...headerOf(view),
    notes: [
      CLAUDE_HISTORY_NOTE,
      ...view.warnings.map((warning) => `${warning.code}: ${warning.message}`),
      ...orphans.map(
        (inbox) =>
          `${inbox.pending.length} entr${inbox.pending.length === 1 ? 'y waits' : 'ies wait'} in an inbox for "${inbox.recipient}", who is not a member of the team; nobody will read ${inbox.pending.length === 1 ? 'it' : 'them'}.`,
      ),
    ],
  };
}

/** A Claude Code task as a card: pending, in progress and completed map to TODO, IN PROGRESS, DONE. */
export function claudeTaskView(task: ClaudeTask): TaskView {
  return {
    id: task.id,
    subject: task.subject,
    description: task.description,
    status: task.status,
    ...(task.owner === undefined || task.owner === '' ? {} : { owner: task.owner }),
    blockedBy: [...task.blockedBy],
    blocks: [...task.blocks],
  };
}

function memberStatus(member: ClaudeTeamMember, team: ClaudeTeamView): string {
  if (team.liveness.status !== 'live') return team.liveness.status;
  return member.isActive === false ? 'idle' : 'active';
}

/** A member of the team config, with the entries waiting in its inbox as its unread mail. */
export function claudeMemberView(member: ClaudeTeamMember, team: ClaudeTeamView): MemberView {
  const inbox = team.inboxes.find(
    (candidate) => candidate.recipient === sanitizePathComponent(member.name),
  );
  const facts = [
    ['Agent', member.agentId],
    ['Model', member.model],
    ['Backend', member.backendType],
    ['Pane', member.tmuxPaneId],
    ['Joined', member.joinedAt === undefined ? undefined : new Date(member.joinedAt).toISOString()],
    ['Plan mode', member.planModeRequired === true ? 'required' : undefined],
  ].flatMap(([label, value]) =>
    value === undefined ? [] : [{ label: label as string, value: value as string }],
  );
  return {
    name: member.name,
    role: member.agentType ?? (member.isLead ? 'lead' : 'teammate'),
    isLead: member.isLead,
    status: memberStatus(member, team),
    ...(member.cwd === undefined ? {} : { worktreePath: member.cwd, worktreeLabel: member.cwd }),
    unread: inbox?.pending.length ?? 0,
    facts,
  };
}

function entryId(recipient: string, entry: ClaudeInboxEntry): string {
  if (entry.msgId !== undefined) return `${recipient}/${entry.msgId}`;
  // Entries Claude Code writes without an id are named by what they hold.
  const digest = createHash('sha256')
    .update(JSON.stringify([recipient, entry.from, entry.timestamp, entry.text]))
    .digest('hex');
  return `${recipient}/${digest.slice(0, 24)}`;
}

function bodyOf(entry: ClaudeInboxEntry): string {
  if (entry.control === undefined) return entry.text;
  const { type, ...rest } = entry.control;
  return JSON.stringify(rest, null, 2);
}

/** The entries waiting in the team's inboxes, oldest first, as messages. */
export function claudeWaitingMessages(team: ClaudeTeamView): MessageView[] {
  const messages = team.inboxes.flatMap((inbox) =>
    inbox.pending.map(
      (entry): MessageView => ({
        id: entryId(inbox.recipient, entry),
        from: entry.from,
        to: [inbox.recipient],
        broadcast: false,
        kind: entry.control?.type ?? 'message',
        ...(entry.summary === undefined ? {} : { summary: entry.summary }),
        body: bodyOf(entry),
        at: Date.parse(entry.timestamp) || 0,
        waiting: true,
      }),
    ),
  );
  return messages.sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : 1));
}

/** The ids of tasks whose file is in the team's problems: torn or invalid right now. */
export function unreadableTaskIds(team: ClaudeTeamView, taskListFolder: string): Set<string> {
  const ids = new Set<string>();
  for (const problem of team.problems) {
    if (path.dirname(problem.file) !== taskListFolder) continue;
    const id = /^(.+)\.json$/.exec(path.basename(problem.file))?.[1];
    if (id !== undefined) ids.add(id);
  }
  return ids;
}

/** The team's unreadable files, as the page lists them. */
export function claudeProblems(team: ClaudeTeamView): string[] {
  return team.problems.map((problem) => `${problem.file}: ${problem.reason}`);
}
