import { readdir } from 'node:fs/promises';
import { claudeFolders, isClaudeTeamName } from './claude-paths.js';
import type {
  ClaudeFileProblem,
  ClaudeTeamListing,
  ClaudeTeamStatus,
  ClaudeTeamSummary,
  ClaudeTeamView,
} from './claude-team-view.js';
import { type ReadTeamContext, readClaudeTeam } from './read-claude-team.js';

// A team folder being removed is first renamed `<team>.deleted-<uuid>`; the dot keeps
// such names (and anything else not spelled like a team) out of the listing.
const SESSION_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function folderNames(folder: string): Promise<string[]> {
  try {
    const entries = await readdir(folder, { withFileTypes: true });
    return entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw error;
  }
}

/**
 * The names of the teams under a config folder: every team folder, and every task list
 * left by a team that ended. Task lists named by a bare session id belong to a session
 * without a team and are left out.
 */
export async function listClaudeTeamNames(configDir: string): Promise<string[]> {
  const folders = claudeFolders(configDir);
  const names = new Set((await folderNames(folders.teams)).filter(isClaudeTeamName));
  for (const name of await folderNames(folders.tasks)) {
    if (isClaudeTeamName(name) && !SESSION_UUID.test(name)) names.add(name);
  }
  return [...names].sort();
}

const STATUS_ORDER: Record<ClaudeTeamStatus, number> = { live: 0, unknown: 1, finished: 2 };

/** The summary fields of a team view. */
export function summarizeTeam(view: ClaudeTeamView): ClaudeTeamSummary {
  return {
    name: view.name,
    liveness: view.liveness,
    hasConfig: view.hasConfig,
    memberCount: view.memberCount,
    taskCounts: view.taskCounts,
    pendingMessages: view.pendingMessages,
    updatedAt: view.updatedAt,
    warnings: view.warnings,
    ...(view.createdAt === undefined ? {} : { createdAt: view.createdAt }),
    ...(view.leadSessionId === undefined ? {} : { leadSessionId: view.leadSessionId }),
    ...(view.version === undefined ? {} : { version: view.version }),
  };
}

/**
 * Lists the teams under a config folder, live first. A team that ended and left an
 * empty task list has nothing to show and is left out; files that stayed torn or
 * invalid are reported in `problems`.
 */
export async function listClaudeTeams(context: ReadTeamContext): Promise<ClaudeTeamListing> {
  const teams: ClaudeTeamSummary[] = [];
  const problems: ClaudeFileProblem[] = [];
  for (const name of await listClaudeTeamNames(context.configDir)) {
    const view = await readClaudeTeam(context, name);
    if (view === undefined) continue;
    problems.push(...view.problems);
    if (!view.hasConfig && view.liveness.status === 'finished' && view.tasks.length === 0) continue;
    teams.push(summarizeTeam(view));
  }
  teams.sort(
    (a, b) =>
      STATUS_ORDER[a.liveness.status] - STATUS_ORDER[b.liveness.status] ||
      b.updatedAt - a.updatedAt ||
      a.name.localeCompare(b.name),
  );
  return { configDir: context.configDir, teams, problems };
}
