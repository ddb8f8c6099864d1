import path from 'node:path';
import { resolveContainedRealPath } from '../storage/index.js';
import { templatesFolder } from './templates-folder.js';

/**
 * The built-in teams shipped in `templates/teams/<id>/`: `coding-team` (lead, architect,
 * implementer, reviewer, tester, researcher) and the presets `solo`, `duo` and `squad`.
 */
export const BUILTIN_TEAM_IDS = ['coding-team', 'solo', 'duo', 'squad'] as const;

/** The id of a built-in team. */
export type BuiltinTeamId = (typeof BUILTIN_TEAM_IDS)[number];

/** True when `id` names a built-in team. */
export function isBuiltinTeamId(id: string): id is BuiltinTeamId {
  return (BUILTIN_TEAM_IDS as readonly string[]).includes(id);
}

/** The folder of a built-in team package; it goes through the same loader as user teams. */
export async function builtinTeamFolder(id: BuiltinTeamId): Promise<string> {
  return resolveContainedRealPath(path.join(templatesFolder(), 'teams'), id);
}
