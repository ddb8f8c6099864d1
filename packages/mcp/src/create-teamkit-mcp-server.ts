import { McpServer, type ServerContext } from '@modelcontextprotocol/server';
import { isTeamkitError, markWaiting, TeamkitError } from '@teamkit/team-core';
import { errorMessage } from '@teamkit/team-core/errors';
import {
  type AnyTeamTool,
  callerRoles,
  createTeamRunView,
  describeTeamTool,
  runTeamTool,
  type TeamToolContext,
  type TeamToolRole,
  teamToolsOfProfile,
} from '@teamkit/team-core/tools';
import { z } from 'zod';
import { ACTING_MEMBER_ARGUMENT, actAsMember } from './acting-member.js';
import { createCliRunControl } from './cli-run-control.js';
import { DEFAULT_SERVER_NAME, mcpToolName } from './mcp-host-names.js';
import {
  type AuthenticatedCaller,
  authenticateIdentity,
  cachedClientSource,
  noRun,
  resolveServerIdentity,
  type ServerIdentity,
  settleServerIdentity,
} from './server-identity.js';
import { createServerLog, hostEvidence, type ServerLog } from './server-log.js';
import type { TeamkitMcpServerOptions } from './server-options.js';
import { registerTeamkitResources } from './teamkit-resources.js';
import { answerResult, errorResult } from './tool-call-result.js';

/** The package's version, reported to hosts in `initialize`. */
const SERVER_VERSION = '0.0.0';

/** A configured Teamkit MCP server: its identity, the tools it offers, and a factory of protocol instances. */
export interface TeamkitMcpServer {
  readonly identity: ServerIdentity;
  /** The tools it lists, after the profile, the identity's roles and run control. */
  readonly tools: readonly AnyTeamTool[];
  /** A protocol instance with every offered tool registered (one per connection). */
  createServer(): McpServer;
  /** Ends every wait in flight (the client went away). */
  abortCalls(): void;
}

/** A schema that passes any value through while advertising the tool's JSON Schema, so the tool's own parse answers bad arguments with `INVALID_INPUT`. */
function advertised(schema: z.ZodObject) {
  const standard = schema['~standard'];
  return {
    '~standard': {
      version: 1 as const,
      vendor: 'teamkit',
      validate: (value: unknown) => ({ value: value as Record<string, unknown> }),
      jsonSchema: standard.jsonSchema,
    },
  };
}

/** The roles whose tools the server lists for its identity. */
async function listedRoles(
  identity: ServerIdentity,
  memberArgument: boolean,
  log: ServerLog,
): Promise<TeamToolRole[]> {
  const roles = new Set<TeamToolRole>();
  if (identity.kind === 'member') {
    roles.add('member');
    try {
      const { caller } = await authenticateIdentity(identity);
      for (const role of callerRoles(caller)) roles.add(role);
    } catch (error) {
      log('warn', `could not read run ${identity.runId} yet; listing member tools`, {
        error: errorMessage(error),
      });
    }
  } else {
    roles.add(identity.kind);
  }
  if (memberArgument) {
    roles.add('member');
    roles.add('lead');
  }
  return [...roles];
}

/**
 * Builds a Teamkit MCP server from options: resolves who it acts as from the environment
 * (`IDENTITY_MISMATCH` for a contradiction, before it serves anything), picks the profile's
 * tools that identity may call, and registers each as a projection of team-core's shared
 * definition. Each call authenticates again against the run as it is at that moment.
 */
export async function createTeamkitMcpServer(
  options: TeamkitMcpServerOptions & { log?: ServerLog },
): Promise<TeamkitMcpServer> {
  const env = options.env ?? process.env;
  const log =
    options.log ?? createServerLog({ ...(options.logFile ? { file: options.logFile } : {}) });
  const identity = await settleServerIdentity(
    resolveServerIdentity({
      env,
      store: options.store,
      ...(options.home === undefined ? {} : { home: options.home }),
      ...(options.run === undefined ? {} : { run: options.run }),
      ...(options.as === undefined ? {} : { as: options.as }),
    }),
    env,
  );
  const memberArgument = options.memberArgument === true;
  const serverName = options.serverName ?? DEFAULT_SERVER_NAME;
  const toolName = (base: string) => mcpToolName(options.host, base, serverName);
  const roles = await listedRoles(identity, memberArgument, log);
  const runs =
    options.runs ??
    (options.teamCli === undefined
      ? undefined
      : createCliRunControl({
          teamCli: options.teamCli,
          home: identity.home,
          store: identity.store,
          env,
          ...(options.agentCommand === undefined ? {} : { agentCommand: options.agentCommand }),
        }));
  const tools = teamToolsOfProfile(options.tools ?? 'member').filter(
    (tool) =>
      tool.roles.some((role) => roles.includes(role)) &&
      (identity.kind !== 'observer' || tool.readOnly) &&
      (tool.needsRunControl !== true || runs !== undefined),
  );
  const calls = new AbortController();
  const clientFor = cachedClientSource(identity.home, identity.store);
  log('info', 'serving', {
    as: identity.kind === 'member' ? identity.member : identity.kind,
    run: identity.runId ?? null,
    tools: tools.map((tool) => tool.name),
    ...hostEvidence(env, undefined),
  });

  /** This server's process waits for mail as `member` (the supervisor sees it idle). */
  const waitingMarker = (runId: string, member: string) => () =>
    markWaiting(runId, member, { handoff: false, store: identity.store });

  function contextOf(authenticated: AuthenticatedCaller, signal: AbortSignal): TeamToolContext {
    const runId = authenticated.state?.runId;
    return {
      caller: authenticated.caller,
      async client() {
        if (authenticated.client !== undefined) return authenticated.client;
        if (runId === undefined) throw noRun();
        throw new TeamkitError(
          'PERMISSION_DENIED',
          'This server has no Teamkit identity, so it may only read.',
        );
      },
      async view() {
        if (runId === undefined) throw noRun();
        return createTeamRunView({ home: identity.home, runId, store: identity.store });
      },
      ...(runs === undefined ? {} : { runs }),
      ...(authenticated.caller.kind === 'member'
        ? { markWaiting: waitingMarker(authenticated.caller.runId, authenticated.caller.member) }
        : {}),
      toolName,
      signal,
    };
  }

  async function call(tool: AnyTeamTool, raw: unknown, ctx: ServerContext) {
    try {
      const args: Record<string, unknown> =
        typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? { ...raw } : {};
      const requested = args[ACTING_MEMBER_ARGUMENT];
      delete args[ACTING_MEMBER_ARGUMENT];
      let authenticated = await authenticateIdentity(identity, clientFor);
      if (requested !== undefined) {
        if (typeof requested !== 'string') {
          throw new TeamkitError('INVALID_INPUT', `${ACTING_MEMBER_ARGUMENT} names a member.`);
        }
        authenticated = actAsMember(
          authenticated,
          identity,
          requested,
          {
            enabled: memberArgument,
            ...(options.members === undefined ? {} : { allowed: options.members }),
          },
          clientFor,
        );
        log('info', 'acting for a member named in the call', {
          tool: tool.name,
          member: requested,
          run: authenticated.state?.runId,
          ...hostEvidence(env, ctx.mcpReq._meta as Record<string, unknown> | undefined),
        });
      }
      const signal = AbortSignal.any([ctx.mcpReq.signal, calls.signal]);
      const answer = await runTeamTool(tool, args, contextOf(authenticated, signal));
      return answerResult(answer);
    } catch (error) {
      if (!isTeamkitError(error)) {
        log('error', `${tool.name} failed`, {
          error: errorMessage(error, { stack: true }),
        });
      }
      return errorResult(error);
    }
  }

  function createServer(): McpServer {
    const server = new McpServer(
      { name: 'teamkit', version: SERVER_VERSION },
      {
        capabilities: { tools: {}, resources: {} },
        instructions: instructionsFor(identity, tools, toolName),
      },
    );
    registerTeamkitResources(server, {
      hasRun: identity.runId !== undefined,
      hasInbox: identity.kind !== 'observer',
      run: async (tool, args) =>
        runTeamTool(
          tool,
          args,
          contextOf(await authenticateIdentity(identity, clientFor), calls.signal),
        ),
    });
    for (const tool of tools) {
      const input = memberArgument
        ? tool.input.extend({
            [ACTING_MEMBER_ARGUMENT]: z
              .string()
              .max(64)
              .optional()
              .describe('The member of the run you are (this server serves several agents).'),
          })
        : tool.input;
      server.registerTool(
        tool.name,
        {
          title: tool.title,
          description: describeTeamTool(tool, toolName),
          inputSchema: advertised(input),
          outputSchema: tool.output,
          annotations: {
            title: tool.title,
            readOnlyHint: tool.readOnly,
            destructiveHint: tool.name === 'delete',
            openWorldHint: false,
          },
        },
        (args: unknown, ctx: ServerContext) => call(tool, args, ctx),
      );
    }
    return server;
  }

  return { identity, tools, createServer, abortCalls: () => calls.abort() };
}

function instructionsFor(
  identity: ServerIdentity,
  tools: readonly AnyTeamTool[],
  toolName: (base: string) => string,
): string {
  const who =
    identity.kind === 'member'
      ? `You are member "${identity.member}" of team run ${identity.runId}.`
      : identity.kind === 'user'
        ? 'You act for the user, with the lead’s rights.'
        : 'This server has no Teamkit identity: its tools only read.';
  const offered = new Set(tools.map((tool) => tool.name));
  const mail = offered.has('read_messages')
    ? ` Read mail with ${toolName('read_messages')} and acknowledge it with ${toolName('acknowledge')}.`
    : '';
  return `Teamkit: the team's mailbox and task list. ${who}${mail} See the run with ${toolName('status')} and its work with ${toolName('task_list')}.`;
}
