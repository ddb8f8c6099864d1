import { TeamkitError } from '../errors/index.js';
import { createMemberClient, type MemberClient } from '../runtime/member-client.js';
import type { RuntimeState } from '../schema/index.js';
import { readRunState } from '../state/index.js';
import type { LockOptions, TeamkitStore } from '../storage/index.js';
import { memberTokenMatches } from './member-token.js';

/** Who a process says it is, and the secret its host gave it. */
export interface AuthenticateMemberInput {
  home: string;
  runId: string;
  member: string;
  /** The `TEAMKIT_TOKEN` of the calling process; `undefined` when it has none. */
  token: string | undefined;
  /** Where the run's state lives (required: the front door chose it). */
  store: TeamkitStore;
  now?: () => number;
  newId?: () => string;
  lock?: LockOptions;
}

function mismatch(message: string, input: AuthenticateMemberInput): TeamkitError {
  return new TeamkitError('IDENTITY_MISMATCH', message, {
    details: { runId: input.runId, member: input.member },
  });
}

/**
 * Checks a member's secret against the hash its run recorded when the member's current
 * process was started, and returns the run's state. Every failure is `IDENTITY_MISMATCH`:
 * a name the run does not have, a member without a recorded secret, no token, or a token
 * that is not this member's (another member's, or one from before a respawn).
 */
export async function verifyMemberCredential(
  input: AuthenticateMemberInput,
): Promise<RuntimeState> {
  const state = await readRunState(input.home, input.runId, {
    store: input.store,
  });
  const record = state.members.find((candidate) => candidate.name === input.member);
  if (record === undefined) {
    throw mismatch(
      `Run ${input.runId} has no member "${input.member}"; a process acts only as the member its host started.`,
      input,
    );
  }
  if (record.credentialHash === undefined) {
    throw mismatch(
      `Member "${input.member}" of run ${input.runId} has no recorded credential: only a process its host started (with TEAMKIT_TOKEN) acts as it.`,
      input,
    );
  }
  if (input.token === undefined || input.token === '') {
    throw mismatch(
      `This process claims to be member "${input.member}" of run ${input.runId} but carries no TEAMKIT_TOKEN; only the process its host started acts as it.`,
      input,
    );
  }
  if (!memberTokenMatches(input.token, record.credentialHash)) {
    throw mismatch(
      `The TEAMKIT_TOKEN of this process is not the one member "${input.member}" of run ${input.runId} was started with.`,
      input,
    );
  }
  return state;
}

/**
 * The one check before a process acts as a member through a channel that names the member
 * in its environment (the `team` command, the MCP server): verifies the member's secret
 * ({@link verifyMemberCredential}) and returns that member's client. Hosts that
 * authenticate by their own means (a session id) build clients with `createMemberClient`.
 */
export async function authenticateMember(input: AuthenticateMemberInput): Promise<MemberClient> {
  await verifyMemberCredential(input);
  return createMemberClient({
    home: input.home,
    runId: input.runId,
    member: input.member,
    store: input.store,
    ...(input.now === undefined ? {} : { now: input.now }),
    ...(input.newId === undefined ? {} : { newId: input.newId }),
    ...(input.lock === undefined ? {} : { lock: input.lock }),
  });
}
