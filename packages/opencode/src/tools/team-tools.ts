import { type ToolDefinition, tool } from '@opencode-ai/plugin';
import { requireLead } from '@teamkit/team-core';
import type { Caller, PluginContext } from '../plugin-context.js';
import { answer, refuseUnlessLead, requireCaller, ToolRefusal, taskLine } from './tool-support.js';

const z = tool.schema;

function statusLines(
  report: Awaited<ReturnType<Awaited<ReturnType<PluginContext['runtime']>>['status']>>,
): string[] {
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
      member.sessionId === undefined ? undefined : `session ${member.sessionId}`,
    ].filter((part): part is string => part !== undefined);
    lines.push(
      `- ${member.name} (${member.role}${member.isLead ? ', lead' : ''}): ${parts.join(', ')}`,
    );
  }
  const counts = Object.entries(report.tasksByStatus)
    .filter(([, count]) => count > 0)
    .map(([status, count]) => `${status} ${count}`);
  lines.push(
    `tasks: ${report.progress.done}/${report.progress.total} done${counts.length > 0 ? ` (${counts.join(', ')})` : ''}`,
  );
  for (const task of report.tasks.filter((candidate) => candidate.status !== 'deleted')) {
    lines.push(`  ${taskLine(task)}`);
  }
  return lines;
}

/** `team_create`, `team_list`, `team_status` and `team_delete`. */
export function createTeamTools(ctx: PluginContext): Record<string, ToolDefinition> {
  return {
    team_create: tool({
      description:
        'Start a team run with this session as its lead: every other member starts as a child session with its own agent. Members cannot create teams.',
      args: {
        team: z
          .string()
          .optional()
          .describe('The team id (see team_list); the default team when omitted.'),
      },
      execute: (args, context) =>
        answer(context, async () => {
          const existing = await ctx.resolveCaller(context.sessionID);
          if (existing !== undefined && !existing.isLead) {
            throw new ToolRefusal(
              'PERMISSION_DENIED',
              `You are ${existing.member} in run ${existing.runId}; members cannot create nested teams. Ask the lead${existing.lead === undefined ? '' : ` (${existing.lead})`} instead.`,
            );
          }
          if (existing !== undefined) {
            throw new ToolRefusal(
              'INVALID_INPUT',
              `This session already leads run ${existing.runId} (team ${existing.state.teamName}); end it with team_delete before starting another.`,
            );
          }
          let team = args.team;
          if (team === undefined) {
            const library = await ctx.loadLibrary();
            team = library.defaultLead?.teamId;
            if (team === undefined) {
              throw new ToolRefusal(
                'TEAM_NOT_FOUND',
                'No team is enabled; add one to the Teamkit config.',
              );
            }
          }
          const runtime = await ctx.runtime();
          const result = await runtime.startRun(team, {
            leadSessionId: context.sessionID,
            ...(ctx.options.worktrees ? { repo: ctx.project } : {}),
          });
          const lead = requireLead(result.state).name;
          const lines = [
            `run ${result.runId} started: team ${result.state.teamName}, you lead as ${lead}`,
            `started: ${result.spawned.length > 0 ? result.spawned.join(', ') : 'none'}`,
          ];
          if (result.waiting.length > 0)
            lines.push(`waiting for a free slot: ${result.waiting.join(', ')}`);
          if (result.layout.status !== 'skipped' || result.layout.reason !== undefined) {
            lines.push(
              `tmux: ${result.layout.status}${result.layout.reason ? ` (${result.layout.reason})` : ''}`,
            );
          }
          return {
            output: lines.join('\n'),
            title: `team ${result.state.teamName} started`,
            metadata: {
              runId: result.runId,
              team: result.state.teamName,
              spawned: result.spawned,
              waiting: result.waiting,
            },
          };
        }),
    }),

    team_list: tool({
      description: 'List the teams this project can start, and the run this session belongs to.',
      args: {},
      execute: (_args, context) =>
        answer(context, async () => {
          const library = await ctx.loadLibrary();
          const lines = library.teams
            .filter((team) => team.enabled)
            .map((team) => {
              const isDefault = library.defaultLead?.teamId === team.id ? ' (default)' : '';
              const members = team.spec.members.map((member) => member.name).join(', ');
              return `- ${team.id}${isDefault}: lead ${team.spec.lead}; members ${members}${team.spec.description ? ` — ${team.spec.description}` : ''}`;
            });
          if (lines.length === 0) lines.push('no teams are enabled');
          const caller = await ctx.resolveCaller(context.sessionID);
          if (caller !== undefined) {
            lines.push(
              `this session: ${caller.member} in run ${caller.runId} (team ${caller.state.teamName})`,
            );
          }
          return {
            output: lines.join('\n'),
            metadata: {
              teams: library.teams.filter((team) => team.enabled).map((team) => team.id),
            },
          };
        }),
    }),

    team_status: tool({
      description: "Show this session's team run: members, what they do, unread mail and tasks.",
      args: {},
      execute: (_args, context) =>
        answer(context, async () => {
          const caller = await requireCaller(ctx, context.sessionID);
          const report = await (await ctx.runtime()).status(caller.runId);
          return {
            output: statusLines(report).join('\n'),
            title: `team ${report.teamName}: ${report.status}`,
            metadata: {
              runId: report.runId,
              status: report.status,
              progress: report.progress,
              members: report.members.map((member) => ({
                name: member.name,
                status: member.status,
                unread: member.unread,
              })),
            },
          };
        }),
    }),

    team_delete: tool({
      description:
        'Lead only: end the team run — stop every member session, release open tasks and close panes.',
      args: {
        force: z
          .boolean()
          .optional()
          .describe(
            'Also remove member worktrees that hold unsaved work, and go on past failing steps (listed in the answer).',
          ),
      },
      execute: (args, context) =>
        answer(context, async () => {
          const caller: Caller = await requireCaller(ctx, context.sessionID);
          refuseUnlessLead(caller, 'end the team');
          const force = args.force === true;
          const report = await (await ctx.runtime()).stopRun(caller.runId, {
            force,
            tolerateFailures: force,
          });
          const lines = [`run ${report.runId} ${report.status}`];
          if (report.stopped.length > 0) lines.push(`stopped: ${report.stopped.join(', ')}`);
          for (const entry of report.notStopped)
            lines.push(`not stopped: ${entry.member} (${entry.reason})`);
          if (report.releasedTasks.length > 0)
            lines.push(`released tasks: ${report.releasedTasks.map((id) => `#${id}`).join(', ')}`);
          for (const kept of report.keptWorktrees)
            lines.push(`kept worktree of ${kept.member}: ${kept.reason}`);
          for (const problem of report.problems)
            lines.push(
              `problem ${problem.step}${problem.member === undefined ? '' : ` ${problem.member}`}: ${problem.code} ${problem.message}`,
            );
          return {
            output: lines.join('\n'),
            metadata: { runId: report.runId, status: report.status },
          };
        }),
    }),
  };
}
