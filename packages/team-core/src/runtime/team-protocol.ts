/**
 * The operations the team protocol tells a member about. An adapter names how its members
 * perform each one (a shell command, a tool call) in a {@link TeamToolVocabulary}.
 */
export const TEAM_PROTOCOL_OPERATIONS = [
  'readMail',
  'sendMessage',
  'listReadyTasks',
  'claimTask',
  'completeTask',
  'submitForReview',
  'createTask',
  'approveTask',
  'requestChanges',
  'requestShutdown',
  'approveShutdown',
  'rejectShutdown',
  'attachEvidence',
] as const;

/** One operation of the team protocol. */
export type TeamProtocolOperation = (typeof TEAM_PROTOCOL_OPERATIONS)[number];

/** Operations every vocabulary names; the others are optional (the prompt then says what to do, not how). */
export type RequiredTeamProtocolOperation =
  | 'readMail'
  | 'sendMessage'
  | 'listReadyTasks'
  | 'claimTask'
  | 'completeTask'
  | 'submitForReview'
  | 'createTask';

/**
 * How an adapter's members perform each protocol operation, as the words the prompt puts
 * after "with": for example `` `team inbox --ack` `` or `` the `team_read_messages` tool ``.
 * Plain data, so a shared tool definition can supply it; the protocol text stays in core.
 */
export type TeamToolVocabulary = Readonly<
  Record<RequiredTeamProtocolOperation, string> &
    Partial<Record<Exclude<TeamProtocolOperation, RequiredTeamProtocolOperation>, string>>
>;

/** What {@link renderTeamProtocol} needs to know about the run and the member. */
export interface TeamProtocolInput {
  runId: string;
  teamName: string;
  member: string;
  role: string;
  lead: string;
  members: readonly { name: string; role: string }[];
  /** How this adapter's members read mail, send, claim and so on. */
  vocabulary: TeamToolVocabulary;
}

const by = (how: string | undefined) => (how === undefined ? '' : ` with ${how}`);

/**
 * The team-protocol addendum appended to every member's prompt: who they are in which
 * run, who else is on the team, and how to read mail, claim tasks and report. The wording
 * is the core's; how each operation is done comes from the adapter's vocabulary.
 */
export function renderTeamProtocol(input: TeamProtocolInput): string {
  const ops = input.vocabulary;
  const roster = input.members
    .map((m) => `- ${m.name} (${m.role})${m.name === input.lead ? ' — lead' : ''}`)
    .join('\n');
  const isLead = input.member === input.lead;
  const review =
    ops.approveTask === undefined
      ? 'review and approve finished work'
      : `review finished work and approve it${by(ops.approveTask)}${ops.requestChanges === undefined ? '' : ` or ask for changes${by(ops.requestChanges)}`}`;
  return [
    '## Team protocol',
    '',
    `You are **${input.member}** (${input.role}) in team "${input.teamName}", run ${input.runId}.`,
    '',
    'Team members:',
    roster,
    '',
    `- Read your mail${by(ops.readMail)}. Messages arrive as <team_message> envelopes; the same message id may arrive twice, so act on each id once.`,
    `- Send mail${by(ops.sendMessage)}. Name recipients exactly as listed above, or \`user\` for the person who started the team (only for what they must know or decide).`,
    `- Find work${by(ops.listReadyTasks)}; claim it${by(ops.claimTask)}. Work only on tasks you own.`,
    `- When done, mark it${by(ops.completeTask)} and ask for review${by(ops.submitForReview)}.`,
    isLead
      ? `- As the lead you plan: state the goal and checkable acceptance criteria, create tasks${by(ops.createTask)}, ${review}, attach evidence to each criterion${by(ops.attachEvidence)} (a task, a commit or a message), and shut the team down${by(ops.requestShutdown)} when the goal is met. The run completes once every member has shut down and you end.`
      : `- Report to ${input.lead} when you finish, are blocked, or need a decision.`,
    '- Every report uses the skeleton STATUS / CHANGES / FINDINGS / EVIDENCE / HANDOFF. "Done" needs evidence (a test run, a diff, a command and its output).',
    `- When you receive a shutdown_request, finish or hand off your task, then approve the shutdown${by(ops.approveShutdown)}${ops.rejectShutdown === undefined ? '' : ` (or reject it${by(ops.rejectShutdown)}, saying why)`}.`,
  ].join('\n');
}
