export type { AuthenticateMemberInput } from './authenticate-member.js';
export { authenticateMember, verifyMemberCredential } from './authenticate-member.js';
export type { RunOperation } from './authorize-operation.js';
export { assertCallerIsUser, assertMayOperateOnRun } from './authorize-operation.js';
export type { IdentifyCallerInput, TeamkitCaller } from './identify-caller.js';
export { identifyCaller, isSameFolder } from './identify-caller.js';
export { issueMemberCredential } from './issue-member-credential.js';
export type { MemberToken } from './member-token.js';
export {
  createMemberToken,
  hashMemberToken,
  MEMBER_TOKEN_HASH_PATTERN,
  memberTokenMatches,
} from './member-token.js';
