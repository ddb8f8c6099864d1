import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { MemberClient, TeamkitCaller } from '@teamkit/team-core';
import { identityMismatch, resolveCallerIdentity } from './caller-identity.js';
import { UsageError } from './exit-codes.js';
import { createOutput, type Output } from './output.js';

/** The options every command takes. */
export interface CommonOptions {
  json?: boolean;
  home?: string;
}

/** What a command runs with: its printer and who is calling from which home. */
export interface CommandContext {
  readonly output: Output;
  readonly home: string;
  /** The member this process is (verified, see `resolveCallerIdentity`), or `undefined` for the user. */
  readonly member: string | undefined;
  /** The run of the member process. */
  readonly memberRun: string | undefined;
  /** The same, in the form team-core's authorization checks take. */
  readonly caller: TeamkitCaller;
  readonly env: NodeJS.ProcessEnv;
}

/** Builds the context of one command run from its options and the environment. */
export async function createCommandContext(
  options: CommonOptions,
  env: NodeJS.ProcessEnv = process.env,
): Promise<CommandContext> {
  const output = createOutput({ json: options.json === true, env });
  const identity = await resolveCallerIdentity(
    options.home === undefined ? {} : { home: options.home },
    env,
  );
  const memberRun =
    identity.runId !== undefined && identity.member !== undefined ? identity.runId : undefined;
  return {
    output,
    home: identity.home,
    member: identity.member,
    memberRun,
    caller:
      identity.member === undefined || memberRun === undefined
        ? { kind: 'user' }
        : {
            kind: 'member',
            runId: memberRun,
            member: identity.member,
            via: identity.via ?? 'token',
          },
    env,
  };
}

const MIN_PREFIX = 4;

/** The run ids under the home, without loading team-core. */
export async function listRunIds(home: string): Promise<string[]> {
  try {
    const entries = await readdir(path.join(home, 'runtime'), { withFileTypes: true });
    return entries
      .filter((entry) => entry.isDirectory() && /^[0-9a-zA-Z][0-9a-zA-Z-]*$/.test(entry.name))
      .map((entry) => entry.name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    // The home or runtime/ is a file, unreadable, ...: the store names what is wrong with a
    // typed error (loaded only on this path, so listing stays cheap).
    const { storeForHome } = await import('@teamkit/team-core');
    await storeForHome(home).list('runtime');
    throw error;
  }
}

/**
 * Resolves a run named on the command line: a full id or a unique prefix of at least four
 * characters. A member may name only its own run (or none); anything else is refused.
 */
export async function resolveRunId(
  context: CommandContext,
  given: string | undefined,
): Promise<string> {
  if (context.memberRun !== undefined) {
    if (given === undefined || given === context.memberRun) return context.memberRun;
    if (given.length >= MIN_PREFIX && context.memberRun.startsWith(given)) return context.memberRun;
    throw await identityMismatch(
      `This process is member "${context.member}" of run ${context.memberRun}; it cannot act in run ${given}.`,
      { member: context.member, run: context.memberRun, requested: given },
    );
  }
  if (given === undefined) throw new UsageError('Name a run (its id or a unique prefix).');
  const ids = await listRunIds(context.home);
  if (ids.includes(given)) return given;
  if (given.length < MIN_PREFIX) {
    throw new UsageError(`A run prefix needs at least ${MIN_PREFIX} characters: "${given}".`);
  }
  const matches = ids.filter((id) => id.startsWith(given));
  const { TeamkitError } = await import('@teamkit/team-core');
  if (matches.length === 0) {
    throw new TeamkitError('RUN_NOT_FOUND', `No team run matches "${given}" in ${context.home}.`, {
      details: { runId: given },
    });
  }
  if (matches.length > 1) {
    throw new TeamkitError(
      'INVALID_INPUT',
      `"${given}" matches ${matches.length} runs (${matches.join(', ')}); give more characters.`,
      { details: { runId: given, matches } },
    );
  }
  return matches[0] as string;
}

/**
 * Splits a command's positional arguments into an optional leading run and the rest.
 * The user always names the run first; a member may leave it out, and a leading
 * argument counts as a run only when the command got more arguments than it needs.
 */
export function splitRunArgument(
  context: CommandContext,
  args: readonly string[],
  needed: number,
): { run: string | undefined; rest: string[] } {
  if (context.memberRun === undefined || args.length > needed) {
    const [run, ...rest] = args;
    return { run, rest };
  }
  return { run: undefined, rest: [...args] };
}

/**
 * The client the caller acts through: its own member (identity verified when the context
 * was made), or the lead for the user. It waits for locks as long as the `lock.timeoutMs`
 * setting of the home's config says.
 */
export async function callerClient(context: CommandContext, runId: string): Promise<MemberClient> {
  const { createMemberClient, readRunState, requireLead } = await import('@teamkit/team-core');
  const { loadCliSettings } = await import('./cli-settings.js');
  const lock = { timeoutMs: (await loadCliSettings(context))['lock.timeoutMs'] };
  const member =
    context.member ?? requireLead(await readRunState(context.home, runId, { lock })).name;
  return createMemberClient({ home: context.home, runId, member, lock });
}
