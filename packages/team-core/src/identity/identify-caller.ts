import { statSync } from 'node:fs';
import path from 'node:path';
import { isTeamkitError, TeamkitError } from '../errors/index.js';
import { START_TOLERANCE_MS } from '../processes/check-recorded-process.js';
import {
  findMemberAncestors,
  MEMBER_VARIABLES,
  parseProcessSessionId,
} from '../processes/index.js';
import { RunIdSchema } from '../schema/index.js';
import { readRunState } from '../state/index.js';
import { createFileStore, type TeamkitStore } from '../storage/index.js';
import { verifyMemberCredential } from './authenticate-member.js';

/**
 * Who is calling: the user (acting from their own shell, with the lead's rights), or a
 * member, known from its secret (`token`) or because the calling process descends from
 * the member's recorded process (`ancestry`).
 */
export type TeamkitCaller =
  | { kind: 'user' }
  | { kind: 'member'; runId: string; member: string; via: 'token' | 'ancestry' };

/** What {@link identifyCaller} looks at. */
export interface IdentifyCallerInput {
  /** The Teamkit home the caller wants to act in, already resolved. */
  home: string;
  /** The caller's environment (`TEAMKIT_HOME`, `TEAMKIT_RUN`, `TEAMKIT_MEMBER`, `TEAMKIT_TOKEN`). */
  env: Readonly<Record<string, string | undefined>>;
  /** The calling process, whose ancestors are checked; default this process. */
  pid?: number;
  /** Where the run's state lives (required: the front door chose it). */
  store: TeamkitStore;
}

/** A member process the caller descends from, confirmed against its run's record. */
interface ConfirmedAncestor {
  home: string;
  runId: string;
  member: string;
  pid: number;
}

const nonEmpty = (value: string | undefined) =>
  value === undefined || value === '' ? undefined : value;

function mismatch(message: string, details: Record<string, unknown>): TeamkitError {
  return new TeamkitError('IDENTITY_MISMATCH', message, { details });
}

/** Whether two paths name the same folder (symlinks and spellings resolved). */
export function isSameFolder(a: string, b: string): boolean {
  try {
    const left = statSync(a);
    const right = statSync(b);
    return left.dev === right.dev && left.ino === right.ino;
  } catch {
    return path.resolve(a) === path.resolve(b);
  }
}

/**
 * The nearest ancestor of `pid` (itself included) that is a member's recorded process:
 * it was started with a member's variables, and its pid and start time match the session
 * its run recorded for that member. A candidate whose run is gone is passed over; one
 * whose run state is unreadable fails closed.
 */
async function findConfirmedAncestor(
  pid: number,
  home: string,
  store: TeamkitStore,
): Promise<ConfirmedAncestor | undefined> {
  for (const candidate of findMemberAncestors(pid)) {
    if (!RunIdSchema.safeParse(candidate.runId).success) continue;
    let sessionId: string | undefined;
    try {
      // An ancestor of another home keeps its runs in that home's folder, as far as this
      // process can know; the caller's store holds only the runs of its own home.
      const state = await readRunState(candidate.home, candidate.runId, {
        store: isSameFolder(candidate.home, home)
          ? store
          : createFileStore({ root: candidate.home }),
      });
      sessionId = state.members.find((member) => member.name === candidate.member)?.sessionId;
    } catch (error) {
      if (isTeamkitError(error, 'RUN_NOT_FOUND')) continue;
      throw mismatch(
        `This process descends from process ${candidate.process.pid}, started as member "${candidate.member}" of run ${candidate.runId}, whose state cannot be read; it cannot act as the user.`,
        { runId: candidate.runId, member: candidate.member },
      );
    }
    const session = sessionId === undefined ? undefined : parseProcessSessionId(sessionId);
    if (
      session !== undefined &&
      session.pid === candidate.process.pid &&
      Math.abs(session.startedAt - candidate.process.startedAt) <= START_TOLERANCE_MS
    ) {
      return {
        home: candidate.home,
        runId: candidate.runId,
        member: candidate.member,
        pid: candidate.process.pid,
      };
    }
  }
  return undefined;
}

/**
 * Decides who a process is before it touches a run. A process that names a member
 * (`TEAMKIT_MEMBER`) must carry that member's secret (`TEAMKIT_TOKEN`, checked against
 * the recorded hash) and act in that member's home. A process that names nobody but
 * descends from a member's recorded process is that member, never the user: removing
 * the variables does not shed an identity. Anything else is the user. Contradictions
 * (a token without a member, a secret used under another member's process, another
 * home) are refused with `IDENTITY_MISMATCH`.
 */
export async function identifyCaller(input: IdentifyCallerInput): Promise<TeamkitCaller> {
  const { env, home } = input;
  const claimed = nonEmpty(env[MEMBER_VARIABLES.member]);
  const token = nonEmpty(env[MEMBER_VARIABLES.token]);
  const ancestor = await findConfirmedAncestor(input.pid ?? process.pid, home, input.store);

  if (claimed !== undefined) {
    const runId = nonEmpty(env[MEMBER_VARIABLES.run]);
    if (runId === undefined) {
      throw mismatch(
        'TEAMKIT_MEMBER is set but TEAMKIT_RUN is not; a member process must be started by its host.',
        { member: claimed },
      );
    }
    const envHome = nonEmpty(env[MEMBER_VARIABLES.home]);
    if (envHome !== undefined && !isSameFolder(envHome, home)) {
      throw mismatch(
        `This process is member "${claimed}" under ${envHome}; it cannot use another Teamkit home.`,
        { member: claimed, runId },
      );
    }
    await verifyMemberCredential({
      home,
      runId,
      member: claimed,
      token,
      store: input.store,
    });
    if (
      ancestor !== undefined &&
      !(
        ancestor.runId === runId &&
        ancestor.member === claimed &&
        isSameFolder(ancestor.home, home)
      )
    ) {
      throw mismatch(
        `This process runs under member "${ancestor.member}" of run ${ancestor.runId} (process ${ancestor.pid}); it cannot act as "${claimed}".`,
        { member: claimed, runId, actual: ancestor.member, actualRun: ancestor.runId },
      );
    }
    return { kind: 'member', runId, member: claimed, via: 'token' };
  }

  if (token !== undefined) {
    throw mismatch(
      'TEAMKIT_TOKEN is set but TEAMKIT_MEMBER is not; a member cannot act as the user.',
      {},
    );
  }
  if (ancestor === undefined) return { kind: 'user' };
  if (!isSameFolder(ancestor.home, home)) {
    throw mismatch(
      `This process runs under member "${ancestor.member}" of run ${ancestor.runId} (process ${ancestor.pid}) in ${ancestor.home}; it cannot use another Teamkit home.`,
      { member: ancestor.member, runId: ancestor.runId },
    );
  }
  return { kind: 'member', runId: ancestor.runId, member: ancestor.member, via: 'ancestry' };
}
