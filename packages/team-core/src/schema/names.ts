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
/** A run id: a UUID. */
export const RunIdSchema = z.uuid();
/** A task id: a positive decimal integer as a string ("1", "2", …). */
export const TaskIdSchema = z
  .string()
  .regex(/^[1-9][0-9]{0,15}$/, 'task id must be a positive decimal number');
/** A timestamp in milliseconds since the epoch. */
export const TimestampSchema = z.number().int().nonnegative();
