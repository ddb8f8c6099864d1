import type {
  ClaudeInboxEntry,
  ClaudeTeamListing,
  ClaudeTeamStatus,
  ClaudeTeamView,
} from '@teamkit/claude-code';
import type { Output } from '../../output.js';

type Paint = Output['style'];

const STATUS_STYLE: Record<ClaudeTeamStatus, 'green' | 'yellow' | 'dim'> = {
  live: 'green',
  unknown: 'yellow',
  finished: 'dim',
};

function clip(text: string, width: number): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length <= width ? flat.padEnd(width) : `${flat.slice(0, Math.max(0, width - 1))}…`;
}

/** `team run list --claude`: one line per team. */
export function renderClaudeListing(listing: ClaudeTeamListing, paint: Paint): string {
  if (listing.teams.length === 0) return `No Claude Code teams in ${listing.configDir}.`;
  const lines = listing.teams.map((team) => {
    const { pending, in_progress, completed } = team.taskCounts;
    return [
      team.name.padEnd(18),
      paint(STATUS_STYLE[team.liveness.status], team.liveness.status.padEnd(9)),
      `${String(team.memberCount).padStart(2)} members`,
      `tasks ${pending}/${in_progress}/${completed}`,
      `${team.pendingMessages} waiting`,
      team.version === undefined ? '' : `Claude Code ${team.version}`,
      new Date(team.updatedAt).toISOString(),
    ].join('  ');
  });
  for (const problem of listing.problems) {
    lines.push(paint('yellow', `unreadable ${problem.file}: ${problem.reason}`));
  }
  return lines.join('\n');
}

function describeEntry(entry: ClaudeInboxEntry): string {
  if (entry.control !== undefined) return `[${entry.control.type}]`;
  return entry.summary ?? entry.text;
}

/** `team board --claude`: the team, its members, its tasks as columns, and waiting mail. */
export function renderClaudeBoard(view: ClaudeTeamView, paint: Paint, width: number): string {
  const lines = [
    `${paint('bold', `Claude Code team ${view.name}`)}  ${paint(STATUS_STYLE[view.liveness.status], view.liveness.status)} (${view.liveness.reason})${view.version === undefined ? '' : `  Claude Code ${view.version}`}`,
  ];
  lines.push(
    view.members.length === 0
      ? 'members: none known (the team folder is gone)'
      : `members: ${view.members
          .map((member) => {
            const traits = [
              member.isLead ? 'lead' : undefined,
              member.backendType,
              member.color,
            ].filter((trait) => trait !== undefined);
            return `${member.name}${traits.length === 0 ? '' : ` (${traits.join(', ')})`}`;
          })
          .join(', ')}`,
  );
  const columns = [
    { title: 'pending', tasks: view.tasks.filter((task) => task.status === 'pending') },
    { title: 'in progress', tasks: view.tasks.filter((task) => task.status === 'in_progress') },
    { title: 'completed', tasks: view.tasks.filter((task) => task.status === 'completed') },
  ];
  const cell = Math.floor((Math.max(60, width) - 4) / 3);
  lines.push(
    '',
    paint(
      'bold',
      columns
        .map((column) => clip(`${column.title} (${column.tasks.length})`, cell))
        .join('  ')
        .trimEnd(),
    ),
  );
  const rows = Math.max(1, ...columns.map((column) => column.tasks.length));
  for (let row = 0; row < rows; row += 1) {
    lines.push(
      columns
        .map((column) => {
          const task = column.tasks[row];
          if (task === undefined) return clip('', cell);
          const blocked =
            task.blockedBy.length > 0
              ? ` [after ${task.blockedBy.map((id) => `#${id}`).join(',')}]`
              : '';
          return clip(
            `#${task.id} ${task.subject}${task.owner ? ` (${task.owner})` : ''}${blocked}`,
            cell,
          );
        })
        .join('  ')
        .trimEnd(),
    );
  }
  const waiting = view.inboxes.flatMap((inbox) => inbox.pending.map((entry) => ({ inbox, entry })));
  lines.push('', paint('bold', `waiting in inboxes (${waiting.length})`));
  for (const { inbox, entry } of waiting) {
    lines.push(
      `  ${entry.timestamp.slice(11, 19)}  ${entry.from} → ${inbox.recipient}${inbox.orphan ? paint('yellow', ' (no such member)') : ''}: ${clip(describeEntry(entry), Math.max(20, width - 40)).trimEnd()}`,
    );
  }
  lines.push(
    paint(
      'dim',
      '  Delivered messages are not shown: Claude Code empties an inbox once it hands the entries to the recipient, and keeps no history in these files.',
    ),
  );
  for (const warning of view.warnings)
    lines.push(paint('yellow', `warning ${warning.code}: ${warning.message}`));
  for (const problem of view.problems) {
    lines.push(paint('yellow', `unreadable ${problem.file}: ${problem.reason}`));
  }
  return lines.join('\n');
}
