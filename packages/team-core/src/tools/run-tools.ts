import { z } from 'zod';
import { TeamkitError } from '../errors/index.js';
import type { RunStatusReport } from '../runtime/run-status.js';
import { MEMBER_STATUSES, TASK_STATUSES, TeamNameSchema } from '../schema/index.js';
import { requireLead } from '../state/index.js';
import { defineTeamTool } from './team-tool.js';
import { ToolTaskSchema, taskLine, toolTask } from './tool-results.js';

const StatusOutput = z.object({
  runId: z.string(),
  teamName: z.string(),
  status: z.string(),
  statusReason: z.string().optional(),
  members: z.array(
    z.object({
      name: z.string(),
      role: z.string(),
      isLead: z.boolean(),
      status: z.enum(MEMBER_STATUSES),
      unread: z.number(),
      currentTask: z
        .object({ id: z.string(), subject: z.string(), status: z.enum(TASK_STATUSES) })
        .optional(),
    }),
  ),
  progress: z.object({ done: z.number(), total: z.number() }),
  tasksByStatus: z.record(z.string(), z.number()),
  tasks: z.array(ToolTaskSchema),
});
type StatusOutput = z.infer<typeof StatusOutput>;

function statusOutput(report: RunStatusReport): StatusOutput {
  return {
    runId: report.runId,
    teamName: report.teamName,
    status: report.status,
    ...(report.statusReason === undefined ? {} : { statusReason: report.statusReason }),
    members: report.members.map((member) => ({
      name: member.name,
      role: member.role,
      isLead: member.isLead,
      status: member.status,
      unread: member.unread,
      ...(member.currentTask === undefined ? {} : { currentTask: { ...member.currentTask } }),
    })),
    progress: { ...report.progress },
    tasksByStatus: Object.fromEntries(
      Object.entries(report.tasksByStatus).filter(([, count]) => count > 0),
    ),
    tasks: report.tasks.filter((task) => task.status !== 'deleted').map(toolTask),
  };
}

function statusText(report: StatusOutput): string {
  const lines = [
    `run ${report.runId}: team ${report.teamName}, ${report.status}${report.statusReason ? ` (${report.statusReason})` : ''}`,
    'members:',
  ];
  for (const member of report.members) {
    const parts = [
      member.status,
      `unread ${member.unread}`,
      member.currentTask === undefined
        ? undefined
        : `task #${member.currentTask.id} ${member.currentTask.status}`,
    ].filter((part): part is string => part !== undefined);
    lines.push(
      `- ${member.name} (${member.role}${member.isLead ? ', lead' : ''}): ${parts.join(', ')}`,
    );
  }
  const counts = Object.entries(report.tasksByStatus).map(
    ([status, count]) => `${status} ${count}`,
  );
  lines.push(
    `tasks: ${report.progress.done}/${report.progress.total} done${counts.length > 0 ? ` (${counts.join(', ')})` : ''}`,
  );
  for (const task of report.tasks) lines.push(`  ${taskLine(task)}`);
  return lines.join('\n');
}

/** `status`: the caller's run: members, what they do, unread mail and tasks. */
export const statusTool = defineTeamTool({
  name: 'status',
  title: 'Team run status',
  description: 'Show your team run: its members, what they do, their unread mail, and the tasks.',
  input: z.object({}),
  output: StatusOutput,
  roles: ['member', 'user', 'observer'],
  readOnly: true,
  operation: () => 'read the run status',
  handler: async (_input, context) => statusOutput(await (await context.view()).status()),
  text: statusText,
});

/** `list`: the teams the caller can start, and the run it belongs to. */
export const listTool = defineTeamTool({
  name: 'list',
  title: 'List teams',
  description: 'List the teams this project can start, and the run you belong to.',
  input: z.object({}),
  output: z.object({
    teams: z.array(
      z.object({
        id: z.string(),
        lead: z.string(),
        members: z.array(z.string()),
        description: z.string().optional(),
        isDefault: z.boolean(),
      }),
    ),
    you: z.object({ member: z.string(), runId: z.string() }).optional(),
  }),
  roles: ['member', 'user', 'observer'],
  readOnly: true,
  needsRunControl: true,
  operation: () => 'list teams',
  async handler(_input, context) {
    const teams = (await context.runs?.listTeams()) ?? [];
    const { caller } = context;
    return {
      teams,
      ...(caller.kind === 'member' ? { you: { member: caller.member, runId: caller.runId } } : {}),
    };
  },
  text(output) {
    const lines = output.teams.map(
      (team) =>
        `- ${team.id}${team.isDefault ? ' (default)' : ''}: lead ${team.lead}; members ${team.members.join(', ')}${team.description ? ` — ${team.description}` : ''}`,
    );
    if (lines.length === 0) lines.push('no teams are enabled');
    if (output.you !== undefined) {
      lines.push(`this session: ${output.you.member} in run ${output.you.runId}`);
    }
    return lines.join('\n');
  },
});

/** `create`: starts a team run with the caller as its lead. */
export const createTool = defineTeamTool({
  name: 'create',
  title: 'Start a team run',
  description:
    'Start a team run with you as its lead: every other member starts with its own agent. Members cannot create teams.',
  input: z.object({
    team: TeamNameSchema.optional().describe(
      'The team id (see {list}); the default team when omitted.',
    ),
  }),
  output: z.object({
    runId: z.string(),
    team: z.string(),
    lead: z.string(),
    spawned: z.array(z.string()),
    waiting: z.array(z.string()),
    tmux: z.object({ status: z.string(), reason: z.string().optional() }),
  }),
  roles: ['user'],
  readOnly: false,
  needsRunControl: true,
  operation: () => 'create nested teams',
  refusal(caller, name) {
    if (caller.kind !== 'member' || !caller.isLead) return undefined;
    return new TeamkitError(
      'INVALID_INPUT',
      `This session already leads run ${caller.runId}${caller.teamName === undefined ? '' : ` (team ${caller.teamName})`}; end it with ${name('delete')} before starting another.`,
      { details: { runId: caller.runId } },
    );
  },
  async handler(input, context) {
    const result = await (context.runs as NonNullable<typeof context.runs>).startRun(input.team);
    return {
      runId: result.runId,
      team: result.state.teamName,
      lead: requireLead(result.state).name,
      spawned: result.spawned,
      waiting: result.waiting,
      tmux: {
        status: result.layout.status,
        ...(result.layout.reason === undefined ? {} : { reason: result.layout.reason }),
      },
    };
  },
  text(output) {
    const lines = [
      // Started by a host that spawns the lead too (`team run start`), the caller is the
      // user beside the run, not its lead.
      output.spawned.includes(output.lead)
        ? `run ${output.runId} started: team ${output.team}, led by ${output.lead} (its own agent)`
        : `run ${output.runId} started: team ${output.team}, you lead as ${output.lead}`,
      `started: ${output.spawned.length > 0 ? output.spawned.join(', ') : 'none'}`,
    ];
    if (output.waiting.length > 0)
      lines.push(`waiting for a free slot: ${output.waiting.join(', ')}`);
    if (output.tmux.status !== 'skipped' || output.tmux.reason !== undefined) {
      lines.push(
        `tmux: ${output.tmux.status}${output.tmux.reason ? ` (${output.tmux.reason})` : ''}`,
      );
    }
    return lines.join('\n');
  },
});

/** `delete`: the lead ends the run. */
export const deleteTool = defineTeamTool({
  name: 'delete',
  title: 'End the team run',
  description:
    'Lead only: end the team run — stop every member, release open tasks and close panes.',
  input: z.object({
    force: z
      .boolean()
      .optional()
      .describe(
        'Also remove member worktrees that hold unsaved work, and go on past failing steps (listed in the answer).',
      ),
  }),
  output: z.object({
    runId: z.string(),
    status: z.string(),
    stopped: z.array(z.string()),
    notStopped: z.array(z.object({ member: z.string(), reason: z.string() })),
    releasedTasks: z.array(z.string()),
    keptWorktrees: z.array(z.object({ member: z.string(), reason: z.string() })),
    problems: z.array(
      z.object({
        step: z.string(),
        member: z.string().optional(),
        code: z.string(),
        message: z.string(),
      }),
    ),
  }),
  roles: ['lead', 'user'],
  readOnly: false,
  needsRunControl: true,
  operation: () => 'end the team',
  async handler(input, context) {
    const { runId } = await context.view();
    const report = await (context.runs as NonNullable<typeof context.runs>).stopRun(runId, {
      force: input.force === true,
    });
    return {
      runId: report.runId,
      status: report.status,
      stopped: report.stopped,
      notStopped: report.notStopped.map((entry) => ({
        member: entry.member,
        reason: entry.reason,
      })),
      releasedTasks: report.releasedTasks,
      keptWorktrees: report.keptWorktrees.map((kept) => ({
        member: kept.member,
        reason: kept.reason,
      })),
      problems: report.problems.map((problem) => ({
        step: problem.step,
        ...(problem.member === undefined ? {} : { member: problem.member }),
        code: problem.code,
        message: problem.message,
      })),
    };
  },
  text(output) {
    const lines = [`run ${output.runId} ${output.status}`];
    if (output.stopped.length > 0) lines.push(`stopped: ${output.stopped.join(', ')}`);
    for (const entry of output.notStopped)
      lines.push(`not stopped: ${entry.member} (${entry.reason})`);
    if (output.releasedTasks.length > 0) {
      lines.push(`released tasks: ${output.releasedTasks.map((id) => `#${id}`).join(', ')}`);
    }
    for (const kept of output.keptWorktrees)
      lines.push(`kept worktree of ${kept.member}: ${kept.reason}`);
    for (const problem of output.problems) {
      lines.push(
        `problem ${problem.step}${problem.member === undefined ? '' : ` ${problem.member}`}: ${problem.code} ${problem.message}`,
      );
    }
    return lines.join('\n');
  },
});
