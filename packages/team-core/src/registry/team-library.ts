import { stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  errorMessage,
  isTeamkitError,
  TeamkitError,
  type TeamkitErrorCode,
} from '../errors/index.js';
import { TeamNameSchema, type TeamSpec } from '../schema/index.js';
import { assertSafeSegment, resolveContainedRealPath } from '../storage/index.js';
import { BUILTIN_TEAM_IDS, builtinTeamFolder, isBuiltinTeamId } from './builtin-teams.js';
import type { ConfigSourceStatus, LoadedConfigSource } from './config-source-file.js';
import {
  type ConfigSourcesOptions,
  readConfigSources,
  settingsOfSources,
  settingsWarnings,
} from './config-sources.js';
import { MemberIdRegistry } from './member-id-registry.js';
import type { RegistryWarning } from './registry-warning.js';
import type { RegistryScope, ResolvedSettings } from './settings.js';
import { teamNotFoundHints } from './team-not-found.js';
import { type ParsedTeam, parseTeamFolder } from './team-package.js';
import { validateTeam } from './validate-team.js';

/** The prefix of a registration path that resolves inside `<config folder>/teams/`. */
export const TEAMS_PREFIX = '@teams/';

/** Where to load from. Every input is injectable; nothing is read from the process deep inside. */
export type LoadTeamLibraryOptions = ConfigSourcesOptions;

/** One entry of a config source's `teams` list after normalisation. */
export interface TeamRegistration {
  scope: RegistryScope;
  /** The config file that declared it. */
  source: string;
  /** The folder holding that config file. */
  base: string;
  kind: 'builtin' | 'path';
  /** The `id` or `path` as written. */
  entry: string;
  enabled: boolean;
  priority: number;
  /** Position in the source's `teams` list. */
  declarationOrder: number;
}

/** A team in the effective library, with where it came from. */
export interface EffectiveTeam {
  id: string;
  spec: TeamSpec;
  scope: RegistryScope;
  priority: number;
  enabled: boolean;
  builtin: boolean;
  /** The config file that registered the team. */
  source: string;
  /** The team folder. */
  folder: string;
  declarationOrder: number;
}

/** A team that lost to another team with the same id in another folder. */
export interface ShadowedTeam {
  id: string;
  winner: { scope: RegistryScope; source: string; folder: string };
  shadowed: { scope: RegistryScope; source: string; folder: string };
  message: string;
}

/** A registration that did not become a team, and why. */
export interface SkippedTeam {
  /**
   * The team's id: the manifest's when it was read, else the built-in id or the name of
   * the folder the entry points to (so `TEAM_NOT_FOUND` can say why an id is missing).
   */
  id: string;
  scope: RegistryScope;
  source: string;
  entry: string;
  folder?: string;
  /** The file at fault (manifest, agent file, policy…), else the folder or config file. */
  file: string;
  code: TeamkitErrorCode;
  reason: string;
}

/** The member that leads by default: the lead of the first enabled team with a usable lead. */
export interface DefaultLead {
  teamId: string;
  member: string;
  scope: RegistryScope;
}

/** A config source as the library used it. */
export interface TeamLibrarySource {
  scope: RegistryScope;
  file: string;
  status: ConfigSourceStatus;
}

/** The effective team library: every team in precedence order, and everything refused. */
export interface TeamLibrary {
  home: string;
  project?: string;
  sources: TeamLibrarySource[];
  teams: EffectiveTeam[];
  defaultLead?: DefaultLead;
  shadows: ShadowedTeam[];
  skipped: SkippedTeam[];
  warnings: RegistryWarning[];
  settings: ResolvedSettings;
}

interface Candidate {
  registration: TeamRegistration;
  folder: string;
  team: ParsedTeam;
}

const SCOPE_RANK: Record<RegistryScope, number> = { project: 0, global: 1 };

function userHomeOf(env: LoadTeamLibraryOptions['env']): string {
  const fromEnv = env?.HOME ?? env?.USERPROFILE;
  return fromEnv !== undefined && fromEnv !== '' ? fromEnv : os.homedir();
}

function toRegistrations(source: LoadedConfigSource): TeamRegistration[] {
  return source.entries.map(({ entry, index }) => ({
    scope: source.scope,
    source: source.file,
    base: source.base,
    kind: 'id' in entry ? 'builtin' : 'path',
    entry: 'id' in entry ? entry.id : entry.path,
    enabled: entry.enabled,
    priority: entry.priority,
    declarationOrder: index,
  }));
}

/**
 * A project config usually comes with the repository, so its relative paths must stay,
 * symlinks resolved, inside the project folder (the parent of `.teamkit/`).
 */
async function resolveInsideProject(
  registration: TeamRegistration,
  entry: string,
): Promise<string> {
  const projectRoot = path.dirname(registration.base);
  const target = path.resolve(registration.base, entry);
  const relative = path.relative(projectRoot, target);
  if (relative.startsWith('..') || path.isAbsolute(relative)) {
    throw new TeamkitError(
      'PATH_TRAVERSAL',
      `Refused project team path ${JSON.stringify(entry)}: it leaves the project folder ${projectRoot}. Use an absolute or ~/ path for folders outside the project.`,
      { details: { path: registration.source, entry } },
    );
  }
  const segments = relative === '' ? [] : relative.split(path.sep);
  return resolveContainedRealPath(projectRoot, ...segments);
}

/**
 * Resolves a registration to its team folder: a built-in id to the packaged folder;
 * `@teams/<name>` inside `<config folder>/teams/` with a symlink-aware check; `~/…`
 * against the user's home; relative paths against the config folder (kept inside the
 * project for a project source); absolute paths as written.
 */
async function discoverFolder(registration: TeamRegistration, userHome: string): Promise<string> {
  const { entry } = registration;
  if (entry.includes('\0')) {
    throw new TeamkitError(
      'PATH_TRAVERSAL',
      `Refused team path ${JSON.stringify(entry)}: it contains a NUL byte.`,
    );
  }
  let folder: string;
  if (registration.kind === 'builtin') {
    if (!isBuiltinTeamId(entry)) {
      throw new TeamkitError(
        'TEAM_NOT_FOUND',
        `unknown built-in team "${entry}" (built-ins: ${BUILTIN_TEAM_IDS.join(', ')}).`,
      );
    }
    folder = await builtinTeamFolder(entry);
  } else if (entry.startsWith(TEAMS_PREFIX)) {
    const name = assertSafeSegment(entry.slice(TEAMS_PREFIX.length), 'team folder name');
    folder = await resolveContainedRealPath(registration.base, 'teams', name);
  } else if (entry === '~' || entry.startsWith('~/')) {
    folder = path.join(userHome, entry.slice(1));
  } else if (path.isAbsolute(entry)) {
    folder = entry;
  } else if (registration.scope === 'project') {
    folder = await resolveInsideProject(registration, entry);
  } else {
    folder = path.resolve(registration.base, entry);
  }
  let isFolder = false;
  try {
    isFolder = (await stat(folder)).isDirectory();
  } catch {
    throw new TeamkitError('INVALID_TEAM', `team folder ${folder} does not exist.`, {
      details: { path: folder },
    });
  }
  if (!isFolder) {
    throw new TeamkitError('INVALID_TEAM', `${folder} is not a folder.`, {
      details: { path: folder },
    });
  }
  return folder;
}

function compareCandidates(a: Candidate, b: Candidate): number {
  const left = a.registration;
  const right = b.registration;
  return (
    SCOPE_RANK[left.scope] - SCOPE_RANK[right.scope] ||
    left.priority - right.priority ||
    left.declarationOrder - right.declarationOrder ||
    (a.team.id < b.team.id ? -1 : a.team.id > b.team.id ? 1 : 0)
  );
}

function faultyFile(error: unknown, fallback: string): string {
  const details = isTeamkitError(error) ? error.details : undefined;
  return typeof details?.path === 'string' ? details.path : fallback;
}

function describeRegistration(registration: TeamRegistration): string {
  return `${registration.scope} team ${registration.kind === 'builtin' ? `"${registration.entry}"` : JSON.stringify(registration.entry)} (${registration.source})`;
}

function isUsableLead(team: EffectiveTeam): boolean {
  const lead = team.spec.members.find((member) => member.name === team.spec.lead);
  return lead !== undefined && lead.mode !== 'subagent';
}

/**
 * Loads the effective team library through one pipeline for every source: collect
 * sources (project, then global) → normalise entries into registrations → discover
 * folders → parse → order (project before global, lower priority first, declaration
 * order, id) → resolve conflicts (the first of an id wins; later ones from another folder are shadows) →
 * validate (member ids registered, rolled back on rejection) → default lead.
 * Never throws for bad files: they are skipped and reported. Writes nothing.
 */
export async function loadTeamLibrary(options: LoadTeamLibraryOptions = {}): Promise<TeamLibrary> {
  const env = options.env ?? process.env;
  const userHome = userHomeOf(env);
  const { home, project, sources } = await readConfigSources(options);

  const warnings: RegistryWarning[] = sources.flatMap((source) => source.warnings);
  const skipped: SkippedTeam[] = [];
  const skip = (
    registration: TeamRegistration,
    error: unknown,
    folder?: string,
    id = registration.kind === 'builtin'
      ? registration.entry
      : path.basename(folder ?? registration.entry),
  ) => {
    const code: TeamkitErrorCode = isTeamkitError(error) ? error.code : 'IO_ERROR';
    const file = faultyFile(error, folder ?? registration.source);
    const reason = errorMessage(error);
    skipped.push({
      id,
      scope: registration.scope,
      source: registration.source,
      entry: registration.entry,
      ...(folder === undefined ? {} : { folder }),
      file,
      code,
      reason,
    });
    warnings.push({
      topic: 'skipped',
      code,
      file,
      message: `skipped ${describeRegistration(registration)}: ${reason}`,
    });
  };

  const candidates: Candidate[] = [];
  for (const registration of sources.flatMap(toRegistrations)) {
    let folder: string | undefined;
    try {
      folder = await discoverFolder(registration, userHome);
      const team = await parseTeamFolder(folder);
      candidates.push({ registration, folder, team });
    } catch (error) {
      skip(registration, error, folder);
    }
  }
  candidates.sort(compareCandidates);

  const registry = new MemberIdRegistry();
  const teams: EffectiveTeam[] = [];
  const shadows: ShadowedTeam[] = [];
  for (const { registration, folder, team } of candidates) {
    const winner = teams.find((effective) => effective.id === team.id);
    // The same folder registered twice (the built-in listed by both configs) is one team,
    // not a collision: the first registration wins and nothing is reported.
    if (winner !== undefined && winner.folder === folder) continue;
    if (winner !== undefined) {
      const message = `${winner.scope} team "${team.id}" shadows ${registration.scope} team "${team.id}" (${winner.folder} wins over ${folder}).`;
      shadows.push({
        id: team.id,
        winner: { scope: winner.scope, source: winner.source, folder: winner.folder },
        shadowed: { scope: registration.scope, source: registration.source, folder },
        message,
      });
      warnings.push({ topic: 'shadow', code: 'INVALID_TEAM', file: team.manifestFile, message });
      continue;
    }
    try {
      const validated = validateTeam(team, registry);
      validated.memberIds.commit();
      warnings.push(...team.warnings);
      teams.push({
        id: validated.spec.id,
        spec: validated.spec,
        scope: registration.scope,
        priority: registration.priority,
        enabled: registration.enabled,
        builtin: registration.kind === 'builtin',
        source: registration.source,
        folder,
        declarationOrder: registration.declarationOrder,
      });
    } catch (error) {
      skip(registration, error, folder, team.id);
    }
  }

  const leadTeam = teams.find((team) => team.enabled && isUsableLead(team));
  const settings = settingsOfSources(sources);
  warnings.push(...settingsWarnings(settings));

  return {
    home,
    ...(project === undefined ? {} : { project }),
    sources: sources.map(({ scope, file, status }) => ({ scope, file, status })),
    teams,
    ...(leadTeam === undefined
      ? {}
      : {
          defaultLead: { teamId: leadTeam.id, member: leadTeam.spec.lead, scope: leadTeam.scope },
        }),
    shadows,
    skipped,
    warnings,
    settings,
  };
}

/**
 * Finds an enabled team of the library by id. Throws `INVALID_INPUT` for an id that is
 * not a team name, and `TEAM_NOT_FOUND` (listing the known ids, the closest one, and the
 * teams the library skipped with their reasons) when no enabled team has it.
 */
export function resolveTeam(library: TeamLibrary, id: string): EffectiveTeam {
  if (!TeamNameSchema.safeParse(id).success) {
    throw new TeamkitError(
      'INVALID_INPUT',
      `${JSON.stringify(id)} is not a team id: ids are lowercase kebab-case, 1–64 characters.`,
      { details: { id } },
    );
  }
  const team = library.teams.find((candidate) => candidate.id === id);
  if (team?.enabled === true) return team;
  const known = library.teams
    .filter((candidate) => candidate.enabled)
    .map((candidate) => candidate.id);
  const listing = known.length === 0 ? 'no teams are enabled' : `known teams: ${known.join(', ')}`;
  const hints = teamNotFoundHints(library.skipped, id, known);
  throw new TeamkitError(
    'TEAM_NOT_FOUND',
    team === undefined
      ? `No team "${id}" (${listing}).${hints.text}`
      : `Team "${id}" is disabled in ${team.source}; set "enabled": true there to use it (${listing}).`,
    { details: { id, known, ...(team === undefined ? hints.details : {}) } },
  );
}
