import type { MemberClient, RunHandle, TeamkitCaller } from '@teamkit/team-core';
import type { LockOptions, TeamkitStore } from '@teamkit/team-core/storage';
import { identityMismatch, resolveCallerIdentity } from './caller-identity.js';
import { createOutput, type Output } from './output.js';
import { UsageError } from './usage-error.js';

/** The options every command takes. */
export interface CommonOptions {
  json?: boolean;
  home?: string;
}

/** What a command runs with: its printer and who is calling from which home. */
export interface CommandContext {
  readonly output: Output;
  readonly home: string;
  /**
   * The store that holds the home's runs, selected once when the command started
   * (`TEAMKIT_STORE`, the `store.url` setting, else the home's folder): every read and
   * write of run state in the command goes through it.
   */
  readonly store: TeamkitStore;
  /** Run `runId` of the home on {@link store}: how a command reads and changes a run. */
  openRun(runId: string, options?: { lock?: LockOptions; actor?: string }): Promise<RunHandle>;
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
  store: TeamkitStore,
  env: NodeJS.ProcessEnv = process.env,
): Promise<CommandContext> {
  const output = createOutput({ json: options.json === true, env });
  const identity = await resolveCallerIdentity(
    options.home === undefined ? {} : { home: options.home },
    env,
    store,
  );
  const memberRun =
    identity.runId !== undefined && identity.member !== undefined ? identity.runId : undefined;
  return {
    output,
    home: identity.home,
    store,
    async openRun(runId, runOptions = {}) {
      const { openRun } = await import('@teamkit/team-core');
      return openRun({ home: identity.home, runId, store, ...runOptions });
    },
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

/**
 * The run ids of the home: team-core's one run listing, from its `home` entry (which
 * loads no schema), over the command's store. A home kept in its folder without a
 * `runtime/` folder answers without opening the store.
 */
export async function listRunIds(
  context: Pick<CommandContext, 'home' | 'store'>,
): Promise<string[]> {
  const { homeFolderHoldsNoRuns, listRunIds: listRunsOf } = await import('@teamkit/team-core/home');
  if (context.store.kind === 'file' && homeFolderHoldsNoRuns(context.home)) return [];
  return listRunsOf(context.store);
}

const RUN_ID_CHARS = /^[0-9a-fA-F-]+$/;

function someRuns(ids: readonly string[]): string {
  const shown = ids.slice(0, 5).map((id) => id.slice(0, 8));
  return `${shown.join(', ')}${ids.length > shown.length ? `, … (${ids.length} in all)` : ''}`;
}

/**
 * Resolves a run named on the command line: a full id or a unique prefix of at least four
 * characters. A member may name only its own run (or none); anything else is refused.
 * Each refusal names the real problem: no runs at all, something that is not a run id
 * (often the next argument, when the run was left out), a prefix too short, or one that
 * matches no run or several.
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
  const ids = await listRunIds(context);
  if (ids.includes(given)) return given;
  const { TeamkitError } = await import('@teamkit/team-core');
  if (ids.length === 0) {
    throw new TeamkitError(
      'RUN_NOT_FOUND',
      `There are no runs in ${context.home}, so "${given}" names none; start one with \`team run start <team>\`.`,
      { details: { runId: given, home: context.home } },
    );
  }
  if (!RUN_ID_CHARS.test(given)) {
    throw new TeamkitError(
      'RUN_NOT_FOUND',
      `"${given}" is not a run id: outside a member, name the run first (its id or a unique prefix of at least ${MIN_PREFIX} characters). Runs here: ${someRuns(ids)}.`,
      { details: { runId: given, runs: ids } },
    );
  }
  if (given.length < MIN_PREFIX) {
    throw new UsageError(`A run prefix needs at least ${MIN_PREFIX} characters: "${given}".`);
  }
  const matches = ids.filter((id) => id.startsWith(given));
  if (matches.length === 0) {
    throw new TeamkitError(
      'RUN_NOT_FOUND',
      `No run in ${context.home} starts with "${given}". Runs here: ${someRuns(ids)} (\`team run list\`).`,
      { details: { runId: given, runs: ids } },
    );
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
  usage?: string,
): { run: string | undefined; rest: string[] } {
  if (context.memberRun === undefined && args.length <= needed && usage !== undefined) {
    // The user left the run out: say so, instead of reading the first argument as a run.
    throw new UsageError(
      `Name the run first: ${usage} (outside a member, commands act in the run you name).`,
    );
  }
  if (context.memberRun === undefined || args.length > needed) {
    const [run, ...rest] = args;
    return { run, rest };
  }
  return { run: undefined, rest: [...args] };
}

/**
 * Splits positional arguments whose run is optional for a member and whose other
 * arguments may be left out too (`team shutdown request [run] [member]`): the user always
 * names the run first (`usage` says how when it is missing); inside a member, a leading
 * argument is the run only when it names one of the home's runs.
 */
export async function splitOptionalRun(
  context: CommandContext,
  args: readonly string[],
  usage: string,
): Promise<{ run: string | undefined; rest: string[] }> {
  if (context.memberRun === undefined) {
    const [run, ...rest] = args;
    if (run === undefined) {
      throw new UsageError(
        `Name the run first: ${usage} (outside a member, commands act in the run you name).`,
      );
    }
    return { run, rest };
  }
  const first = args[0];
  if (first !== undefined && first.length >= MIN_PREFIX) {
    const runs = await listRunIds(context);
    if (runs.some((id) => id.startsWith(first))) return { run: first, rest: args.slice(1) };
  }
  return { run: undefined, rest: [...args] };
}

/**
 * The client the caller acts through: its own member (identity verified when the context
 * was made), or, for anyone else, the user (`user`), who has an inbox of its own and the
 * lead's rights. It waits for locks as long as the `lock.timeoutMs` setting of the home's
 * config says.
 */
export async function callerClient(context: CommandContext, runId: string): Promise<MemberClient> {
  const { createMemberClient } = await import('@teamkit/team-core');
  const { USER_PARTICIPANT } = await import('@teamkit/team-core/schema');
  const { loadCliSettings } = await import('./cli-settings.js');
  const lock = { timeoutMs: (await loadCliSettings(context))['lock.timeoutMs'] };
  const member = context.member ?? USER_PARTICIPANT;
  return createMemberClient({ home: context.home, runId, member, lock, store: context.store });
}
