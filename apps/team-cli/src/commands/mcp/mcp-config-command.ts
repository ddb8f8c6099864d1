import { resolveRunId } from '../../command-context.js';
import type { CommandHandler } from '../../command-handler.js';
import { UsageError } from '../../exit-codes.js';
import { TEAM_CLI_BIN } from './team-cli-bin.js';
import { defaultConfigFile, writeHostConfig } from './write-host-config.js';

const HOSTS = ['claude', 'codex', 'gemini', 'opencode'] as const;
type Host = (typeof HOSTS)[number];

/**
 * `team mcp config --host claude|codex|gemini|opencode [--member M --run R | --as user
 * [--run R]] [--tools P] [--write [--file F]]`: prints (or merges into the host's file) the
 * configuration that starts the Teamkit MCP server in that host, as each host needs it.
 * The server's flags are checked by the server's own parser, so a config that would not
 * start is refused here.
 */
export const mcpConfigCommand: CommandHandler = async (context, _args, options) => {
  const host = options.host as Host | undefined;
  if (host === undefined || !HOSTS.includes(host)) {
    throw new UsageError(`--host is one of ${HOSTS.join(', ')}.`);
  }
  const member = typeof options.member === 'string' ? options.member : undefined;
  const run = typeof options.run === 'string' ? options.run : undefined;
  if (member !== undefined && run === undefined && context.memberRun === undefined) {
    throw new UsageError('--member needs --run (the run the member belongs to).');
  }
  const asUser = options.as !== undefined;
  if (asUser && member !== undefined) {
    throw new UsageError('--as user and --member are two identities; give one of them.');
  }
  if (asUser && context.member !== undefined) {
    const { TeamkitError } = await import('@teamkit/team-core');
    throw new TeamkitError(
      'IDENTITY_MISMATCH',
      `This process is member "${context.member}"; it cannot configure a server that acts as the user.`,
      { details: { member: context.member } },
    );
  }
  const env: Record<string, string> = {};
  if (member !== undefined || run !== undefined) {
    const runId = await resolveRunId(context, run);
    const { TeamkitError } = await import('@teamkit/team-core');
    const state = await (await context.openRun(runId)).state.read();
    if (member !== undefined && !state.members.some((candidate) => candidate.name === member)) {
      throw new TeamkitError(
        'UNKNOWN_MEMBER',
        `Run ${runId} has no member "${member}" (members: ${state.members.map((candidate) => candidate.name).join(', ')}).`,
        { details: { runId, member } },
      );
    }
    env.TEAMKIT_HOME = context.home;
    env.TEAMKIT_RUN = runId;
    if (member !== undefined) env.TEAMKIT_MEMBER = member;
  }
  const args: string[] = [];
  if (typeof options.as === 'string') args.push('--as', options.as);
  if (typeof options.tools === 'string') args.push('--tools', options.tools);
  // The lead tools' create and delete run this CLI (`team run start`, `team run stop`).
  if (options.tools === 'lead' || options.tools === 'all') args.push('--team-cli', TEAM_CLI_BIN);
  const { parseServerArguments, renderMcpHostConfig } = await import('@teamkit/mcp');
  parseServerArguments(args);
  const config = renderMcpHostConfig({ host, env, args });
  const { output } = context;
  if (options.write !== true) {
    output.result({ host, format: config.format, config: config.text }, () => config.text);
    return undefined;
  }
  const file =
    typeof options.file === 'string'
      ? options.file
      : defaultConfigFile(host, process.cwd(), context.env);
  const outcome = await writeHostConfig(file, config);
  output.result({ host, file, outcome }, () => `${outcome} ${file}`);
  return undefined;
};
