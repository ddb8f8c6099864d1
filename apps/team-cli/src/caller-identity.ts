import type { TeamkitStore } from '@teamkit/team-core/storage';
/** Who runs a `team` command: a member (its host set it up) or the user. */
export interface CallerIdentity {
  home: string;
  /** The run the caller belongs to, when it is a member. */
  runId: string | undefined;
  /** The member this process is; `undefined` for the user. */
  member: string | undefined;
  /**
   * How the member was recognised: by the secret its host gave it (`token`), or because
   * this process descends from the member's recorded process (`ancestry`).
   */
  via?: 'token' | 'ancestry';
}

/** The flags that bear on identity. */
export interface IdentityFlags {
  home?: string;
  run?: string;
}

/**
 * Resolves the caller. A process that names a member (`TEAMKIT_MEMBER`, with
 * `TEAMKIT_RUN`, `TEAMKIT_HOME` and the member's secret `TEAMKIT_TOKEN`, all set by its
 * host) is that member once team-core verified the secret; it cannot point a command at
 * another run or home (`IDENTITY_MISMATCH`). A process that names nobody but descends
 * from a member's recorded process is that member too. Anyone else is the user, who acts
 * as the lead and needs no secret. The common case, the user in a shell that no member
 * started, is decided from `/proc` alone, without loading the rest of team-core.
 */
export async function resolveCallerIdentity(
  flags: IdentityFlags,
  env: NodeJS.ProcessEnv,
  store: TeamkitStore,
  pid: number = process.pid,
): Promise<CallerIdentity> {
  const { resolveTeamkitHome } = await import('@teamkit/team-core/home');
  const member = nonEmpty(env.TEAMKIT_MEMBER);
  const envRun = nonEmpty(env.TEAMKIT_RUN);
  const envHome = nonEmpty(env.TEAMKIT_HOME);
  if (member !== undefined) {
    if (envRun === undefined) {
      throw await identityMismatch(
        'TEAMKIT_MEMBER is set but TEAMKIT_RUN is not; a member process must be started by its host.',
      );
    }
    if (flags.run !== undefined && flags.run !== envRun) {
      throw await identityMismatch(
        `This process is member "${member}" of run ${envRun}; it cannot act in run ${flags.run}.`,
        { member, run: envRun, requested: flags.run },
      );
    }
    if (
      flags.home !== undefined &&
      envHome !== undefined &&
      resolveTeamkitHome(flags.home, env) !== resolveTeamkitHome(envHome, env)
    ) {
      throw await identityMismatch(
        `This process is member "${member}" under ${envHome}; it cannot use another Teamkit home.`,
        { member },
      );
    }
  }
  const home = resolveTeamkitHome(flags.home, env);
  if (member === undefined && nonEmpty(env.TEAMKIT_TOKEN) === undefined) {
    const { findMemberAncestors } = await import('@teamkit/team-core/processes/ancestry');
    if (findMemberAncestors(pid).length === 0) return { home, runId: flags.run, member: undefined };
  }
  const { identifyCaller } = await import('@teamkit/team-core');
  const caller = await identifyCaller({ home, env, pid, store });
  if (caller.kind === 'user') return { home, runId: flags.run, member: undefined };
  return { home, runId: caller.runId, member: caller.member, via: caller.via };
}

/** Builds the `IDENTITY_MISMATCH` error; team-core is loaded only when one is raised. */
export async function identityMismatch(
  message: string,
  details?: Record<string, unknown>,
): Promise<Error> {
  const { TeamkitError } = await import('@teamkit/team-core');
  return new TeamkitError('IDENTITY_MISMATCH', message, details === undefined ? {} : { details });
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
