import { parseArgs } from 'node:util';
import { TeamkitError } from '@teamkit/team-core';
import { errorMessage } from '@teamkit/team-core/errors';
import type { TeamkitStore } from '@teamkit/team-core/storage';
import type { TeamRunControl, TeamToolProfile } from '@teamkit/team-core/tools';
import { MCP_HOSTS, type McpHostName } from './mcp-host-names.js';

const PROFILES: readonly TeamToolProfile[] = ['minimal', 'member', 'lead', 'all'];

/** How a Teamkit MCP server runs: who it acts as, which tools it offers, where it logs. */
export interface TeamkitMcpOptions {
  /** The Teamkit home; a member's `TEAMKIT_HOME` wins and may not be contradicted. */
  home?: string;
  /** The run to act in when no member identity names one (the user, an observer). */
  run?: string;
  /** `'user'`: act as the user (the lead's rights) when the process has no member identity. */
  as?: 'user';
  /** The tool set (default `member`); tools are further limited to the caller's roles. */
  tools?: TeamToolProfile;
  /**
   * Accept a `member` argument on every tool, for one server serving several agents of a
   * run (checked against the roster, recorded in the log). Only a server acting as the user
   * or as the run's lead may be configured so.
   */
  memberArgument?: boolean;
  /** With {@link memberArgument}: the only members the argument may name. */
  members?: readonly string[];
  /** The host that runs the server, so texts name its tools as it shows them (`mcp__teamkit__…`). */
  host?: McpHostName;
  /** The server's name in the host's configuration (default `teamkit`). */
  serverName?: string;
  /** Also write the log, as JSON lines, to this file. */
  logFile?: string;
  /** The process environment identity comes from (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** Starting and ending runs, for an embedder whose process can host members. */
  runs?: TeamRunControl;
  /**
   * The `team` CLI's program file: with it, `create` and `delete` start and stop runs
   * through `team run start` and `team run stop` (the CLI hosts members; this server cannot).
   * `team mcp` passes its own.
   */
  teamCli?: string;
  /** With {@link teamCli}: the agent command `create` starts members with (`--agent-cmd`). */
  agentCommand?: string;
}

/** What a server is built from: its options, and the store its front door chose. */
export interface TeamkitMcpServerOptions extends TeamkitMcpOptions {
  /**
   * The store holding the runs of the server's home: `team mcp` passes the store the CLI
   * selected (`TEAMKIT_STORE`); `teamkit-mcp` the file store of the home it resolved.
   */
  store: TeamkitStore;
}

function usage(message: string): TeamkitError {
  return new TeamkitError('INVALID_INPUT', `${message} (see teamkit-mcp --help).`);
}

/** The options of `teamkit-mcp` (and `team mcp`) from its command line; bad flags are `INVALID_INPUT`. */
export function parseServerArguments(argv: readonly string[]): TeamkitMcpOptions & {
  help: boolean;
} {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: false,
      strict: true,
      options: {
        home: { type: 'string' },
        run: { type: 'string' },
        as: { type: 'string' },
        tools: { type: 'string' },
        'member-argument': { type: 'boolean' },
        members: { type: 'string' },
        host: { type: 'string' },
        name: { type: 'string' },
        'log-file': { type: 'string' },
        'team-cli': { type: 'string' },
        'agent-cmd': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw usage(errorMessage(error));
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  const text = (key: string) => (typeof values[key] === 'string' ? values[key] : undefined);
  const as = text('as');
  if (as !== undefined && as !== 'user') throw usage(`--as takes only "user", not "${as}"`);
  const tools = text('tools');
  if (tools !== undefined && !PROFILES.includes(tools as TeamToolProfile)) {
    throw usage(`--tools is one of ${PROFILES.join(', ')}, not "${tools}"`);
  }
  const host = text('host');
  if (host !== undefined && !MCP_HOSTS.includes(host as McpHostName)) {
    throw usage(`--host is one of ${MCP_HOSTS.join(', ')}, not "${host}"`);
  }
  const members = text('members');
  if (members !== undefined && values['member-argument'] !== true) {
    throw usage('--members needs --member-argument');
  }
  const name = text('name');
  if (name !== undefined && !/^[a-z0-9][a-z0-9_-]{0,63}$/i.test(name)) {
    throw usage(`--name is a short name of letters, digits, "-" and "_", not "${name}"`);
  }
  const teamCli = text('team-cli');
  const agentCommand = text('agent-cmd');
  if (agentCommand !== undefined && teamCli === undefined) {
    throw usage('--agent-cmd needs --team-cli');
  }
  return {
    help: values.help === true,
    ...(text('home') === undefined ? {} : { home: text('home') }),
    ...(text('run') === undefined ? {} : { run: text('run') }),
    ...(as === undefined ? {} : { as: 'user' as const }),
    ...(tools === undefined ? {} : { tools: tools as TeamToolProfile }),
    ...(values['member-argument'] === true ? { memberArgument: true } : {}),
    ...(members === undefined
      ? {}
      : {
          members: members
            .split(',')
            .map((member) => member.trim())
            .filter(Boolean),
        }),
    ...(host === undefined ? {} : { host: host as McpHostName }),
    ...(name === undefined ? {} : { serverName: name }),
    ...(text('log-file') === undefined ? {} : { logFile: text('log-file') }),
    ...(teamCli === undefined ? {} : { teamCli }),
    ...(agentCommand === undefined ? {} : { agentCommand }),
  };
}

/** The `--help` text of `teamkit-mcp`. */
export const SERVER_HELP = `teamkit-mcp: the team's tools over MCP (stdio).

Identity comes from the environment Teamkit sets when it launches a member
(TEAMKIT_HOME, TEAMKIT_RUN, TEAMKIT_MEMBER, TEAMKIT_TOKEN). Without it the server
offers read-only tools, or acts as the user with --as user.

Options:
  --as user             act as the user (the lead's rights) when no member identity is set
  --run <id>            the run to act in without a member identity
  --home <dir>          the Teamkit home (default $TEAMKIT_HOME or ~/.teamkit)
  --tools <profile>     minimal | member (default) | lead | all
  --member-argument     accept a "member" argument (one server for several agents)
  --members <a,b>       with --member-argument: the members it may name
  --host <host>         claude | codex | gemini | opencode: name tools as that host does
  --name <name>         the server's name in the host's configuration (default teamkit)
  --log-file <file>     also log, as JSON lines, to this file
  --team-cli <file>     the team CLI's bin.js: offer create/delete (team run start/stop)
  --agent-cmd <cmd>     with --team-cli: the agent command create starts members with
`;
