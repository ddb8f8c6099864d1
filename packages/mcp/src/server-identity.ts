import path from 'node:path';
import {
  createMemberClient,
  findLead,
  type MemberClient,
  RunIdSchema,
  type RuntimeState,
  readRunState,
  resolveTeamkitHome,
  TeamkitError,
} from '@teamkit/team-core';
import type { TeamToolCaller } from '@teamkit/team-core/tools';

/**
 * Who a server process is, as its launcher set it up: a member (`TEAMKIT_MEMBER` with
 * `TEAMKIT_RUN`, and the member's secret `TEAMKIT_TOKEN`), the user (only with an explicit
 * `--as user`), or an observer with no identity, which may only read.
 */
export type ServerIdentity =
  | { kind: 'member'; home: string; runId: string; member: string; token: string | undefined }
  | { kind: 'user'; home: string; runId: string | undefined }
  | { kind: 'observer'; home: string; runId: string | undefined };

/** What identity is resolved from. */
export interface ServerIdentityInput {
  env: NodeJS.ProcessEnv;
  home?: string;
  run?: string;
  as?: 'user';
}

const nonEmpty = (value: string | undefined) =>
  value === undefined || value === '' ? undefined : value;

function mismatch(message: string, details: Record<string, unknown> = {}): TeamkitError {
  return new TeamkitError('IDENTITY_MISMATCH', message, { details });
}

function checkRunId(runId: string | undefined, from: string): string | undefined {
  if (runId === undefined || RunIdSchema.safeParse(runId).success) return runId;
  throw new TeamkitError('INVALID_INPUT', `${from} is not a run id (a UUID): "${runId}".`, {
    details: { runId },
  });
}

/**
 * Resolves the server's identity from the environment and flags, never from anything a
 * model sends. A member process cannot be pointed at another run or home, nor act as the
 * user (`IDENTITY_MISMATCH`).
 */
export function resolveServerIdentity(input: ServerIdentityInput): ServerIdentity {
  const { env } = input;
  const member = nonEmpty(env.TEAMKIT_MEMBER);
  const envRun = checkRunId(nonEmpty(env.TEAMKIT_RUN), 'TEAMKIT_RUN');
  const flagRun = checkRunId(input.run, '--run');
  const home = resolveTeamkitHome(input.home, env);
  if (member !== undefined) {
    if (envRun === undefined) {
      throw mismatch(
        'TEAMKIT_MEMBER is set but TEAMKIT_RUN is not; a member server must be started by its host.',
        { member },
      );
    }
    if (input.as === 'user') {
      throw mismatch(`This process is member "${member}"; it cannot act as the user.`, {
        member,
      });
    }
    if (flagRun !== undefined && flagRun !== envRun) {
      throw mismatch(
        `This process is member "${member}" of run ${envRun}; it cannot act in run ${flagRun}.`,
        { member, run: envRun, requested: flagRun },
      );
    }
    const envHome = nonEmpty(env.TEAMKIT_HOME);
    if (
      input.home !== undefined &&
      envHome !== undefined &&
      path.resolve(resolveTeamkitHome(input.home, env)) !==
        path.resolve(resolveTeamkitHome(envHome, env))
    ) {
      throw mismatch(
        `This process is member "${member}" under ${envHome}; it cannot use another Teamkit home.`,
        { member },
      );
    }
    return {
      kind: 'member',
      home: resolveTeamkitHome(envHome ?? input.home, env),
      runId: envRun,
      member,
      token: nonEmpty(env.TEAMKIT_TOKEN),
    };
  }
  const runId = flagRun ?? envRun;
  return input.as === 'user' ? { kind: 'user', home, runId } : { kind: 'observer', home, runId };
}

/** Where authenticated calls get a member's client (a server keeps one per member). */
export type MemberClientSource = (runId: string, member: string) => MemberClient;

/** A new member client for every call. */
export function defaultClientSource(home: string): MemberClientSource {
  return (runId, member) => createMemberClient({ home, runId, member });
}

/** One client per run and member, kept for the server's life (the mailbox keeps its caches). */
export function cachedClientSource(home: string): MemberClientSource {
  const clients = new Map<string, MemberClient>();
  return (runId, member) => {
    const key = `${runId}/${member}`;
    let client = clients.get(key);
    if (client === undefined) {
      client = createMemberClient({ home, runId, member });
      clients.set(key, client);
    }
    return client;
  };
}

/** A caller authenticated for one tool call: its roles, and the client it acts through. */
export interface AuthenticatedCaller {
  caller: TeamToolCaller;
  /** The acting member's client; `undefined` for an observer or without a run. */
  client: MemberClient | undefined;
  /** The run's state as the call found it; `undefined` when the server has no run. */
  state: RuntimeState | undefined;
}

/** The refusal for a call that needs a run when the server has none. */
export function noRun(): TeamkitError {
  return new TeamkitError(
    'RUN_NOT_FOUND',
    'This server is not bound to a run: start it as a member (TEAMKIT_RUN, TEAMKIT_MEMBER) or give --run.',
  );
}

/**
 * Authenticates the server's identity against its run, as it is now: the member must be
 * on the roster and not terminated (`IDENTITY_MISMATCH`); the user acts through the lead. This is the one place the member's secret is to be
 * checked (`TEAMKIT_TOKEN` against the hash the run keeps) once the core offers it.
 */
export async function authenticateIdentity(
  identity: ServerIdentity,
  clientFor: MemberClientSource = defaultClientSource(identity.home),
): Promise<AuthenticatedCaller> {
  if (identity.runId === undefined) {
    // Only the user and observers can be without a run (a member always has TEAMKIT_RUN).
    return {
      caller: { kind: identity.kind === 'user' ? 'user' : 'observer' },
      client: undefined,
      state: undefined,
    };
  }
  const { home, runId } = identity;
  const state = await readRunState(home, runId);
  const lead = findLead(state)?.name;
  const base = { runId, teamName: state.teamName, ...(lead === undefined ? {} : { lead }) };
  if (identity.kind === 'member') {
    const record = state.members.find((candidate) => candidate.name === identity.member);
    if (record === undefined || record.status === 'terminated') {
      throw mismatch(
        `Run ${runId} has no ${record === undefined ? '' : 'live '}member "${identity.member}"; this server acts only as the member its host started.`,
        { runId, member: identity.member },
      );
    }
    return {
      caller: { kind: 'member', member: record.name, isLead: record.isLead, ...base },
      client: clientFor(runId, record.name),
      state,
    };
  }
  if (identity.kind === 'user') {
    if (lead === undefined) {
      throw new TeamkitError('UNKNOWN_MEMBER', `Run ${runId} has no lead to act for the user.`, {
        details: { runId },
      });
    }
    // The user acts with the lead's rights, through the lead's client, as the CLI does.
    return {
      caller: { kind: 'user', runId },
      client: clientFor(runId, lead),
      state,
    };
  }
  return { caller: { kind: 'observer', runId }, client: undefined, state };
}
