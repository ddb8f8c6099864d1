import { z } from 'zod';

/** Lowercase kebab-case, 1–64 characters: the shape of every team and member name. */
export const NAME_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

const kebabName = (what: string) =>
  z
    .string()
    .min(1, `${what} must not be empty`)
    .max(64, `${what} must be at most 64 characters`)
    .regex(NAME_PATTERN, `${what} must be lowercase kebab-case (a-z, 0-9 and single dashes)`);

/** A team id or name: lowercase kebab-case, 1–64 characters. */
export const TeamNameSchema = kebabName('team name');
/** A member name: lowercase kebab-case, 1–64 characters. */
export const MemberNameSchema = kebabName('member name');

/**
 * The participant name of the person running Teamkit: `user` has an inbox of its own and
 * the lead's rights in every run, but is never a spawned member, so no team may name a
 * member `user`.
 */
export const USER_PARTICIPANT = 'user';

/**
 * The sender of messages Teamkit itself writes (e.g. that a run cannot complete yet).
 * It receives nothing and cannot be claimed by an agent, so no team may name a member
 * `teamkit` either.
 */
export const TEAMKIT_SENDER = 'teamkit';

/** Member names no team may use: they name the user and Teamkit itself. */
export const RESERVED_MEMBER_NAMES: readonly string[] = [USER_PARTICIPANT, TEAMKIT_SENDER];
/** A run id: a UUID. */
export const RunIdSchema = z.uuid();
/** A task id: a positive decimal integer as a string ("1", "2", …). */
export const TaskIdSchema = z
  .string()
  .regex(/^[1-9][0-9]{0,15}$/, 'task id must be a positive decimal number');
/** A timestamp in milliseconds since the epoch. */
export const TimestampSchema = z.number().int().nonnegative();
