import type { TeamToolCaller } from '@teamkit/team-core/tools';
import { type CommandContext, callerClient } from './command-context.js';

/**
 * How the `team` command names the shared tools it runs, for the texts that point a
 * caller at another operation ("decide with …").
 */
const CLI_NAMES: Readonly<Record<string, string>> = {
  permission_decide: '`team permission approve|deny <id>`',
  permission_list: '`team permission list`',
  permission_request: '`team permission request`',
  shutdown_request: '`team shutdown request`',
  approve_shutdown: '`team shutdown approve`',
  reject_shutdown: '`team shutdown reject`',
  goal_set: '`team run goal`',
  criterion_evidence: '`team run criteria evidence`',
  criterion_waive: '`team run criteria waive`',
  run_merge: '`team run merge`',
  run_report: '`team run report`',
};

/**
 * Runs one of the shared team tools (`@teamkit/team-core/tools`) as the caller of this
 * command — its member, or the user — so the CLI, the MCP server and the OpenCode plugin
 * do the same thing with the same checks and the same refusals. Resolves to the tool's
 * structured output and its text.
 */
export async function runToolAs(
  context: CommandContext,
  runId: string,
  name: string,
  args: Record<string, unknown>,
): Promise<{ output: Record<string, unknown>; text: string }> {
  const { findLead, readRunState } = await import('@teamkit/team-core');
  const { createTeamRunView, findTeamTool, runTeamTool } = await import('@teamkit/team-core/tools');
  const tool = findTeamTool(name);
  if (tool === undefined) throw new Error(`no team tool ${name}`);
  let caller: TeamToolCaller = { kind: 'user', runId };
  if (context.member !== undefined) {
    const state = await readRunState(context.home, runId);
    const lead = findLead(state)?.name;
    caller = {
      kind: 'member',
      runId,
      member: context.member,
      isLead: lead === context.member,
      teamName: state.teamName,
      ...(lead === undefined ? {} : { lead }),
    };
  }
  return runTeamTool(tool, args, {
    caller,
    client: () => callerClient(context, runId),
    view: async () => createTeamRunView({ home: context.home, runId }),
    toolName: (base) => CLI_NAMES[base] ?? base,
  });
}
