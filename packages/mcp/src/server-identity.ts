import path from 'node:path';
import {
  createMemberClient,
  identifyCaller,
  type MemberClient,
  openRun,
  type RuntimeState,
  TeamkitError,
  verifyMemberCredential,
} from '@teamkit/team-core';
import { RunIdSchema, USER_PARTICIPANT } from '@teamkit/team-core/schema';
import { findLead } from '@teamkit/team-core/state';
import { resolveTeamkitHome, type TeamkitStore } from '@teamkit/team-core/storage';
import type { TeamToolCaller } from '@teamkit/team-core/tools';

/**
 * Who a server process is, as its launcher set it up: a member (`TEAMKIT_MEMBER` with
 * `TEAMKIT_RUN`, and the member's secret `TEAMKIT_TOKEN`), the user (only with an explicit
 * `--as user`), or an observer with no identity, which may only read.
 */
export type ServerIdentity = (
  | {
      kind: 'member';
      home: string;
      runId: string;
      member: string;
      token: string | undefined;
      /** How it is known: its secret (checked on every call), or its process ancestry (checked at start). */
      via: 'token' | 'ancestry';
    }
  | { kind: 'user'; home: string; runId: string | undefined }
  | { kind: 'observer'; home: string; runId: string | undefined }
) & {
  /** The store holding the home's runs, chosen by whoever started the server. */
  store: TeamkitStore;
};

/** What identity is resolved from. */
export interface ServerIdentityInput {
  env: NodeJS.ProcessEnv;
  /** The store holding the runs of the home (the server's front door chose it). */
  store: TeamkitStore;
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
 * The Teamkit home a server acts in: a member's `TEAMKIT_HOME` (which `home` may not
 * contradict, see {@link resolveServerIdentity}), else `home`, else the default home.
 */
export function serverHome(home: string | undefined, env: NodeJS.ProcessEnv): string {
  const envHome =
    nonEmpty(env.TEAMKIT_MEMBER) === undefined ? undefined : nonEmpty(env.TEAMKIT_HOME);
  return resolveTeamkitHome(envHome ?? home, env);
}

/**
 * Resolves the server's identity from the environment and flags, never from anything a
 * model sends. A member process cannot be pointed at another run or home, nor act as the
 * user (`IDENTITY_MISMATCH`).
 */
export function resolveServerIdentity(input: ServerIdentityInput): ServerIdentity {
  const { env, store } = input;
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
      via: 'token',
      store,
    };
  }
  const runId = flagRun ?? envRun;
  return input.as === 'user'
    ? { kind: 'user', home, runId, store }
    : { kind: 'observer', home, runId, store };
}

/** Where authenticated calls get a member's client (a server keeps one per member). */
export type MemberClientSource = (runId: string, member: string) => MemberClient;

/** A new member client for every call. */
export function defaultClientSource(home: string, store: TeamkitStore): MemberClientSource {
  return (runId, member) => createMemberClient({ home, runId, member, store });
}

/** One client per run and member, kept for the server's life (the mailbox keeps its caches). */
export function cachedClientSource(home: string, store: TeamkitStore): MemberClientSource {
  const clients = new Map<string, MemberClient>();
  return (runId, member) => {
    const key = `${runId}/${member}`;
    let client = clients.get(key);
    if (client === undefined) {
      client = createMemberClient({ home, runId, member, store });
      clients.set(key, client);
    }
    return client;
  };
}

/**
 * Settles the identity with the core's caller identification before serving anything: a
 * member's secret must be its own, and a process that names nobody but descends from a
 * member's recorded process is that member (removing the variables, as Codex does for its
 * servers, does not shed an identity), and may not act as the user (`IDENTITY_MISMATCH`).
 */
export async function settleServerIdentity(
  identity: ServerIdentity,
  env: NodeJS.ProcessEnv,
): Promise<ServerIdentity> {
  const caller = await identifyCaller({ home: identity.home, env, store: identity.store });
  if (identity.kind === 'member' || caller.kind !== 'member') return identity;
  if (identity.kind === 'user') {
    throw mismatch(
      `This process runs under member "${caller.member}" of run ${caller.runId}; it cannot act as the user.`,
      { member: caller.member, runId: caller.runId },
    );
  }
  return {
    kind: 'member',
    home: identity.home,
    runId: caller.runId,
    member: caller.member,
    token: undefined,
    via: 'ancestry',
    store: identity.store,
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
 * Authenticates the server's identity against its run, as it is now: a member's secret
 * (`TEAMKIT_TOKEN`) must match the hash the run recorded for it, and the member must be
 * on the roster and not terminated (`IDENTITY_MISMATCH`); the user acts as `user`.
 * The one place a call's identity is decided.
 */
export async function authenticateIdentity(
  identity: ServerIdentity,
  clientFor: MemberClientSource = defaultClientSource(identity.home, identity.store),
): Promise<AuthenticatedCaller> {
  if (identity.runId === undefined) {
    // Only the user and observers can be without a run (a member always has TEAMKIT_RUN).
    return {
      caller: { kind: identity.kind === 'user' ? 'user' : 'observer' },
      client: undefined,
      state: undefined,
    };
  }
  const { home, runId, store } = identity;
  const run = openRun({ home, runId, store });
  if (identity.kind === 'member') {
    // The member's secret against the hash its run recorded when its process was started:
    // a wrong, missing or stale TEAMKIT_TOKEN, or a name the run does not have, is
    // IDENTITY_MISMATCH.
    const verified =
      identity.via === 'token'
        ? await verifyMemberCredential({
            home,
            runId,
            member: identity.member,
            token: identity.token,
            store,
          })
        : await run.state.read();
    const record = verified.members.find((candidate) => candidate.name === identity.member);
    if (record === undefined || record.status === 'terminated') {
      throw mismatch(
        `Member "${identity.member}" of run ${runId} has stopped; this server acts only for the live member its host started.`,
        { runId, member: identity.member },
      );
    }
    const lead = findLead(verified)?.name;
    return {
      caller: {
        kind: 'member',
        runId,
        member: record.name,
        isLead: record.isLead,
        teamName: verified.teamName,
        ...(lead === undefined ? {} : { lead }),
      },
      client: clientFor(runId, record.name),
      state: verified,
    };
  }
  const state = await run.state.read();
  const lead = findLead(state)?.name;
  if (identity.kind === 'user') {
    if (lead === undefined) {
      throw new TeamkitError('UNKNOWN_MEMBER', `Run ${runId} has no lead to act for the user.`, {
        details: { runId },
      });
    }
    // The user acts as itself (`user`: its own inbox, the lead's rights), as the CLI does.
    return {
      caller: { kind: 'user', runId },
      client: clientFor(runId, USER_PARTICIPANT),
      state,
    };
  }
  return { caller: { kind: 'observer', runId }, client: undefined, state };
}
