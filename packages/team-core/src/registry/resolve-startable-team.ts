import { isTeamkitError, TeamkitError } from '../errors/index.js';
import type { TeamSpec } from '../schema/index.js';
import { BUILTIN_TEAM_IDS, builtinTeamFolder, isBuiltinTeamId } from './builtin-teams.js';
import { MemberIdRegistry } from './member-id-registry.js';
import type { RegistryScope } from './settings.js';
import { resolveTeam, type TeamLibrary } from './team-library.js';
import { teamNotFoundHints } from './team-not-found.js';
import { parseTeamFolder } from './team-package.js';
import { validateTeam } from './validate-team.js';

/** A team a run can start from: its spec, where it comes from, and its folder. */
export interface StartableTeam {
  id: string;
  spec: TeamSpec;
  /** `builtin` for a built-in team, else the scope of the config that registered it. */
  scope: RegistryScope | 'builtin';
  folder: string;
}

/**
 * Finds the team a run starts from. An enabled team of the library wins (so a project or
 * user team may shadow a built-in id, and a registration with `enabled: false` switches
 * the id off). A built-in team that no config lists is still startable by its id: the
 * config decides the default team and the library view, not which built-ins exist.
 * Anything else is `TEAM_NOT_FOUND`, naming the enabled teams, the built-ins, the closest
 * id and every skipped team with its reason.
 */
export async function resolveStartableTeam(
  library: TeamLibrary,
  id: string,
): Promise<StartableTeam> {
  try {
    const team = resolveTeam(library, id);
    return {
      id: team.id,
      spec: team.spec,
      scope: team.builtin ? 'builtin' : team.scope,
      folder: team.folder,
    };
  } catch (error) {
    const listed = library.teams.some((candidate) => candidate.id === id);
    if (!isTeamkitError(error, 'TEAM_NOT_FOUND') || listed) throw error;
  }
  if (!isBuiltinTeamId(id)) {
    const known = library.teams.filter((team) => team.enabled).map((team) => team.id);
    const hints = teamNotFoundHints(library.skipped, id, [...known, ...BUILTIN_TEAM_IDS]);
    throw new TeamkitError(
      'TEAM_NOT_FOUND',
      `No team "${id}" (enabled teams: ${known.join(', ') || 'none'}; built-in teams: ${BUILTIN_TEAM_IDS.join(', ')}).${hints.text || ' Register a team folder in the Teamkit config to add one.'}`,
      { details: { id, known, builtin: [...BUILTIN_TEAM_IDS], ...hints.details } },
    );
  }
  const folder = await builtinTeamFolder(id);
  const validated = validateTeam(await parseTeamFolder(folder), new MemberIdRegistry());
  return { id, spec: validated.spec, scope: 'builtin', folder };
}
