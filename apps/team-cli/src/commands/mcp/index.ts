import type { CommandHandler } from '../../command-handler.js';
import { TEAM_CLI_BIN } from './team-cli-bin.js';

/**
 * `team mcp`: serves the team's tools over MCP on stdio, the same server as `teamkit-mcp`
 * (loaded only here, so other commands start as before). Prints nothing on stdout but
 * protocol; runs until the client goes away.
 */
export const mcpCommand: CommandHandler = async (context, _args, options) => {
  const { parseServerArguments, serveTeamkitMcp } = await import('@teamkit/mcp');
  const argv: string[] = [];
  const flag = (name: string, value: unknown) => {
    if (typeof value === 'string') argv.push(`--${name}`, value);
  };
  flag('as', options.as);
  flag('run', options.run);
  flag('tools', options.tools);
  flag('members', options.members);
  flag('host', options.host);
  flag('name', options.name);
  flag('log-file', options.logFile);
  flag('agent-cmd', options.agentCmd);
  if (options.memberArgument === true) argv.push('--member-argument');
  // This CLI hosts members, so the server's create and delete run it.
  argv.push('--team-cli', TEAM_CLI_BIN);
  const parsed = parseServerArguments(argv);
  await serveTeamkitMcp({ ...parsed, home: context.home, env: context.env, store: context.store });
  return 0;
};

export { mcpConfigCommand } from './mcp-config-command.js';
