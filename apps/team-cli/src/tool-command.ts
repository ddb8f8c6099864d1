import type {
  AnyTeamTool,
  TeamToolAnswer,
  TeamToolCaller,
  TeamToolName,
  TeamToolNamed,
} from '@teamkit/team-core/tools';
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
  read_messages: '`team inbox`',
  acknowledge: '`team ack`',
  send_message: '`team send`',
  task_list: '`team task list`',
  task_get: '`team task get`',
  task_create: '`team task create`',
  task_claim: '`team task claim`',
  task_submit_for_review: '`team task review`',
  task_approve: '`team task approve`',
  task_request_changes: '`team task request-changes`',
  task_update: '`team task`',
  artifact_put: '`team artifact put`',
  artifact_get: '`team artifact get`',
  artifact_list: '`team artifact list`',
};

/** The structured output of the tool of that name. */
export type ToolOutput<Name extends TeamToolName> = Awaited<
  ReturnType<TeamToolNamed<Name>['handler']>
>;

/**
 * Runs one of the shared team tools (`@teamkit/team-core/tools`) as the caller of this
 * command — its member, or the user — so the CLI, the MCP server and the OpenCode plugin
 * do the same thing with the same checks and the same refusals. The arguments are the
 * command's option values as given: the tool's zod input parses them (`INVALID_INPUT`
 * naming the field), so no command checks or casts them itself. Resolves to the tool's
 * typed output and its text.
 */
export async function runToolAs<Name extends TeamToolName>(
  context: CommandContext,
  runId: string,
  name: Name,
  args: Record<string, unknown>,
): Promise<TeamToolAnswer<ToolOutput<Name>>> {
  const { findLead } = await import('@teamkit/team-core/state');
  const { createTeamRunView, findTeamTool, runTeamTool } = await import('@teamkit/team-core/tools');
  const tool = findTeamTool(name);
  if (tool === undefined) throw new Error(`no team tool ${name}`);
  let caller: TeamToolCaller = { kind: 'user', runId };
  if (context.member !== undefined) {
    const state = await (await context.openRun(runId)).state.read();
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
  // Options left out are absent, not `undefined`, so a tool's strict checks see what was given.
  const given = Object.fromEntries(Object.entries(args).filter(([, value]) => value !== undefined));
  const answer = await runTeamTool(tool as AnyTeamTool, given, {
    caller,
    client: () => callerClient(context, runId),
    view: async () => createTeamRunView({ home: context.home, runId, store: context.store }),
    toolName: (base) => CLI_NAMES[base] ?? base,
  });
  // The tool of `name` produced it: its output has that tool's type.
  return answer as TeamToolAnswer<ToolOutput<Name>>;
}
