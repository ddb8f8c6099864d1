import { findMember, type StateOptions, updateRunState } from '../state/index.js';
import { createMemberToken } from './member-token.js';

/**
 * Creates a fresh secret for a member about to be (re)started, records only its hash in
 * the member's entry of `state.json` (replacing the previous one, so an earlier process's
 * secret stops working) and returns the secret for the host to put in the new process's
 * environment as `TEAMKIT_TOKEN`. Call it before the spawn, so the member's first
 * command already finds its hash.
 */
export async function issueMemberCredential(
  home: string,
  runId: string,
  member: string,
  options: StateOptions,
): Promise<string> {
  const { token, hash } = createMemberToken();
  await updateRunState(
    home,
    runId,
    (draft) => {
      findMember(draft, member).credentialHash = hash;
      return draft;
    },
    options,
  );
  return token;
}
