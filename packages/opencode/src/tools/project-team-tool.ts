import { type ToolContext, type ToolDefinition, tool } from '@opencode-ai/plugin';
import { TeamkitError } from '@teamkit/team-core';
import {
  type AnyTeamTool,
  createTeamRunView,
  describeTeamTool,
  runTeamTool,
  startableTeams,
  type TeamRunControl,
  type TeamToolCaller,
  type TeamToolContext,
} from '@teamkit/team-core/tools';
import type { PluginContext } from '../plugin-context.js';
import { openCodeToolName } from './opencode-tool-names.js';
import { deliverSoon, notInRun, refusalText } from './tool-support.js';

/** Starting and ending runs from a session: the calling session becomes the lead. */
function runControl(ctx: PluginContext, sessionId: string): TeamRunControl {
  return {
    async listTeams() {
      const library = await ctx.loadLibrary();
      return startableTeams(library);
    },
    async startRun(team) {
      const chosen = team ?? (await ctx.loadLibrary()).defaultLead?.teamId;
      if (chosen === undefined) {
        throw new TeamkitError(
          'TEAM_NOT_FOUND',
          'No team is enabled; add one to the Teamkit config.',
        );
      }
      return (await ctx.runtime()).startRun(chosen, {
        leadSessionId: sessionId,
        ...(ctx.options.worktrees ? { repo: ctx.project } : {}),
      });
    },
    async stopRun(runId, { force }) {
      return (await ctx.runtime()).stopRun(runId, { force, tolerateFailures: force });
    },
  };
}

/** The context a call from `sessionId` runs with: the session's run and member, by the core's rule. */
async function callContext(ctx: PluginContext, context: ToolContext): Promise<TeamToolContext> {
  const found = await ctx.resolveCaller(context.sessionID);
  const caller: TeamToolCaller =
    found === undefined
      ? { kind: 'user' }
      : {
          kind: 'member',
          runId: found.runId,
          member: found.member,
          isLead: found.isLead,
          ...(found.lead === undefined ? {} : { lead: found.lead }),
          teamName: found.state.teamName,
        };
  return {
    caller,
    async client() {
      if (found === undefined) throw notInRun();
      return (await ctx.runtime()).member(found.runId, found.member);
    },
    async view() {
      if (found === undefined) throw notInRun();
      return createTeamRunView({ home: ctx.home, runId: found.runId, store: ctx.store });
    },
    runs: runControl(ctx, context.sessionID),
    mailSent: (runId, members) => deliverSoon(ctx, runId, members),
    toolName: openCodeToolName,
    signal: context.abort,
  };
}

/**
 * Projects one shared team tool onto OpenCode: its description with OpenCode's tool
 * names, its input schema as the arguments, and its answer as text (what OpenCode shows
 * the model), with the structured result as metadata. Teamkit refusals come back as
 * `error CODE: message` so the model can correct itself; other errors are rethrown.
 */
export function projectTeamTool(ctx: PluginContext, teamTool: AnyTeamTool): ToolDefinition {
  return tool({
    description: describeTeamTool(teamTool, openCodeToolName),
    args: teamTool.input.shape,
    async execute(args, context) {
      try {
        const answer = await runTeamTool(teamTool, args, await callContext(ctx, context));
        context.metadata({ title: teamTool.title, metadata: answer.output });
        return answer.text;
      } catch (error) {
        const text = refusalText(error);
        if (text === undefined) throw error;
        const code = (error as TeamkitError).code;
        context.metadata({ title: `error ${code}`, metadata: { error: code } });
        return text;
      }
    },
  });
}
