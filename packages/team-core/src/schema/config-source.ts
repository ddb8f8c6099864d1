import { z } from 'zod';
import { TeamNameSchema } from './names.js';

const registrationBase = {
  enabled: z.boolean().default(true),
  priority: z.number().int().min(-1_000_000).max(1_000_000).default(0),
};

/** A team registration naming a built-in team by id. */
export const BuiltinTeamRegistrationSchema = z.strictObject({
  id: TeamNameSchema,
  ...registrationBase,
});

/**
 * A team registration naming a team folder: `@teams/x` (relative to the folder holding
 * the config file), a relative path, `~/…`, or an absolute path.
 */
export const PathTeamRegistrationSchema = z.strictObject({
  path: z.string().min(1).max(4096),
  ...registrationBase,
});

/** One entry of a config source's `teams` list: exactly one of `id` or `path`. */
export const TeamRegistrationEntrySchema = z.union([
  BuiltinTeamRegistrationSchema,
  PathTeamRegistrationSchema,
]);

/**
 * A config source file (`~/.teamkit/config.json` or `<project>/.teamkit/config.json`),
 * JSON or JSONC. Scope is derived from where the file is, never written in it.
 */
export const ConfigSourceSchema = z.strictObject({
  $schema: z.string().optional(),
  version: z.literal(1).default(1),
  teams: z.array(TeamRegistrationEntrySchema).default([]),
  settings: z.record(z.string(), z.unknown()).default({}),
});

/** A parsed config source file. */
export type ConfigSource = z.infer<typeof ConfigSourceSchema>;
/** One team registration entry. */
export type TeamRegistrationEntry = z.infer<typeof TeamRegistrationEntrySchema>;
