import os from 'node:os';
import path from 'node:path';

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
export async function resolveCallerIdentity(
  flags: IdentityFlags,
  env: NodeJS.ProcessEnv = process.env,
): Promise<CallerIdentity> {
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
      resolveHome(flags.home, env) !== resolveHome(envHome, env)
    ) {
      throw await identityMismatch(
        `This process is member "${member}" under ${envHome}; it cannot use another Teamkit home.`,
        { member },
      );
    }
  }
  return {
    home: resolveHome(flags.home, env),
    runId: member !== undefined ? envRun : flags.run,
    member,
  };
}

/** Builds the `IDENTITY_MISMATCH` error; team-core is loaded only when one is raised. */
export async function identityMismatch(
  message: string,
  details?: Record<string, unknown>,
): Promise<Error> {
  const { TeamkitError } = await import('@teamkit/team-core');
  return new TeamkitError('IDENTITY_MISMATCH', message, details === undefined ? {} : { details });
}

/**
 * The Teamkit home as team-core's `resolveTeamkitHome` computes it (explicit, then
 * `TEAMKIT_HOME`, then `~/.teamkit`), kept here so commands that only read start fast.
 */
export function resolveHome(explicit: string | undefined, env: NodeJS.ProcessEnv): string {
  const chosen = explicit ?? env.TEAMKIT_HOME;
  if (chosen !== undefined && chosen !== '') {
    const expanded =
      chosen === '~'
        ? os.homedir()
        : chosen.startsWith('~/')
          ? path.join(os.homedir(), chosen.slice(2))
          : chosen;
    return path.resolve(expanded);
  }
  return path.join(os.homedir(), '.teamkit');
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
