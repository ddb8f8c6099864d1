import { resolveTeamkitHome, TeamkitError } from '@teamkit/team-core';

/** Who runs a `team` command: a member (its host set the environment) or the user. */
export interface CallerIdentity {
  home: string;
  /** The run the caller belongs to, when it is a member. */
  runId: string | undefined;
  /** The member name when a host started this process as a member; `undefined` for the user. */
  member: string | undefined;
}

/** The flags that bear on identity. */
export interface IdentityFlags {
  home?: string;
  run?: string;
}

/**
 * Resolves the caller from the environment a host set (`TEAMKIT_HOME`, `TEAMKIT_RUN`,
 * `TEAMKIT_MEMBER`). A member cannot point a command at another run or another home:
 * that is refused with `IDENTITY_MISMATCH`. Outside a member, the user acts as the lead.
 */
export function resolveCallerIdentity(
  flags: IdentityFlags,
  env: NodeJS.ProcessEnv = process.env,
): CallerIdentity {
  const member = nonEmpty(env.TEAMKIT_MEMBER);
  const envRun = nonEmpty(env.TEAMKIT_RUN);
  const envHome = nonEmpty(env.TEAMKIT_HOME);
  if (member !== undefined) {
    if (envRun === undefined) {
      throw new TeamkitError(
        'IDENTITY_MISMATCH',
        'TEAMKIT_MEMBER is set but TEAMKIT_RUN is not; a member process must be started by its host.',
      );
    }
    if (flags.run !== undefined && flags.run !== envRun) {
      throw new TeamkitError(
        'IDENTITY_MISMATCH',
        `This process is member "${member}" of run ${envRun}; it cannot act in run ${flags.run}.`,
        { details: { member, run: envRun, requested: flags.run } },
      );
    }
    if (
      flags.home !== undefined &&
      envHome !== undefined &&
      resolveTeamkitHome(flags.home) !== resolveTeamkitHome(envHome)
    ) {
      throw new TeamkitError(
        'IDENTITY_MISMATCH',
        `This process is member "${member}" under ${envHome}; it cannot use another Teamkit home.`,
        { details: { member } },
      );
    }
  }
  return {
    home: resolveTeamkitHome(flags.home, env),
    runId: member !== undefined ? envRun : flags.run,
    member,
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
