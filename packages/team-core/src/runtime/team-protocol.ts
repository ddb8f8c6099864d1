/** How a member reaches the team: `team` shell commands, or host tools named `team_*`. */
export type TeamProtocolChannel = 'cli' | 'tools';

/** What {@link renderTeamProtocol} needs to know about the run and the member. */
export interface TeamProtocolInput {
  runId: string;
  teamName: string;
  member: string;
  role: string;
  lead: string;
  members: readonly { name: string; role: string }[];
  channel: TeamProtocolChannel;
}

const OPERATIONS: Record<TeamProtocolChannel, Record<string, string>> = {
  cli: {
    read: '`team inbox --ack` (or `team inbox --wait 60` to wait for mail)',
    send: '`team send --to <name> "<text>"`',
    ready: '`team task list --ready`',
    claim: '`team task claim <id>` then `team task start <id>`',
    complete: '`team task complete <id>`',
    review: '`team task review <id>`',
    create: '`team task create "<subject>" --description "<text>" [--blocked-by <id>]`',
  },
  tools: {
    read: 'the `team_read_messages` tool',
    send: 'the `team_send_message` tool',
    ready: 'the `team_task_list` tool with `ready: true`',
    claim: 'the `team_task_claim` tool, then `team_task_update` with status `in_progress`',
    complete: '`team_task_update` with status `completed`',
    review: '`team_task_update` with status `in_review`',
    create: 'the `team_task_create` tool (with `blockedBy` for dependencies)',
  },
};

/**
 * The team-protocol addendum appended to every member's prompt: who they are in which
 * run, who else is on the team, and how to read mail, claim tasks and report.
 */
export function renderTeamProtocol(input: TeamProtocolInput): string {
  const ops = OPERATIONS[input.channel];
  const roster = input.members
    .map((m) => `- ${m.name} (${m.role})${m.name === input.lead ? ' — lead' : ''}`)
    .join('\n');
  const isLead = input.member === input.lead;
  return [
    '## Team protocol',
    '',
    `You are **${input.member}** (${input.role}) in team "${input.teamName}", run ${input.runId}.`,
    '',
    'Team members:',
    roster,
    '',
    `- Read your mail with ${ops.read}. Messages arrive as <team_message> envelopes; the same message id may arrive twice, so act on each id once.`,
    `- Send mail with ${ops.send}. Name recipients exactly as listed above.`,
    `- Find work with ${ops.ready}; claim it with ${ops.claim}. Work only on tasks you own.`,
    `- When done, mark it with ${ops.complete} and ask for review with ${ops.review}.`,
    isLead
      ? `- As the lead you plan: state the goal and checkable acceptance criteria, create tasks with ${ops.create}, review and approve finished work, and shut the team down when the goal is met.`
      : `- Report to ${input.lead} when you finish, are blocked, or need a decision.`,
    '- Every report uses the skeleton STATUS / CHANGES / FINDINGS / EVIDENCE / HANDOFF. "Done" needs evidence (a test run, a diff, a command and its output).',
    '- When you receive a shutdown_request, finish or hand off your task, then approve the shutdown.',
  ].join('\n');
}
