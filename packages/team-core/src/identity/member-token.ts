import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A member's secret and the hash of it that is kept on disk. */
export interface MemberToken {
  /** 32 random bytes as hex; handed only to the member's process, never written down. */
  token: string;
  /** `sha256:<hex>` of the token, recorded in the member's entry of `state.json`. */
  hash: string;
}

const HASH_PATTERN = /^sha256:[0-9a-f]{64}$/;

/** The form of a recorded token hash. */
export const MEMBER_TOKEN_HASH_PATTERN = HASH_PATTERN;

/** Creates a fresh member secret (a new one for every spawn) and its hash. */
export function createMemberToken(): MemberToken {
  const token = randomBytes(32).toString('hex');
  return { token, hash: hashMemberToken(token) };
}

/**
 * The hash recorded for a token. A plain SHA-256 suffices: the token is 256 random bits,
 * so there is nothing to guess from the hash.
 */
export function hashMemberToken(token: string): string {
  return `sha256:${createHash('sha256').update(token, 'utf8').digest('hex')}`;
}

/** Whether `token` is the one whose hash was recorded (compared in constant time). */
export function memberTokenMatches(token: string, hash: string): boolean {
  if (!HASH_PATTERN.test(hash)) return false;
  const given = Buffer.from(hashMemberToken(token), 'utf8');
  const recorded = Buffer.from(hash, 'utf8');
  return given.length === recorded.length && timingSafeEqual(given, recorded);
}
