import os from 'node:os';
import path from 'node:path';
import { TeamkitError } from '@teamkit/team-core';
import { expandHome } from '@teamkit/team-core/storage';

/**
 * Claude Code's config folder: `$CLAUDE_CONFIG_DIR` when set, else `~/.claude`, the
 * base Claude Code itself resolves its `teams/`, `tasks/` and `sessions/` folders from.
 */
export function resolveClaudeConfigDir(env: NodeJS.ProcessEnv = process.env): string {
  const configured = env.CLAUDE_CONFIG_DIR;
  if (configured !== undefined && configured.trim() !== '') {
    return path.resolve(expandHome(configured.trim()));
  }
  return path.join(os.homedir(), '.claude');
}

/**
 * Claude Code's file-name sanitiser for inbox and task-list paths: every character
 * outside `[A-Za-z0-9_-]` becomes `-`. The result can never hold a separator or `..`.
 */
export function sanitizePathComponent(name: string): string {
  return name.replace(/[^a-zA-Z0-9_-]/g, '-');
}

const TEAM_FOLDER_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/** True for a folder name Claude Code could have given a team (already sanitised). */
export function isClaudeTeamName(name: string): boolean {
  return TEAM_FOLDER_NAME.test(name);
}

/**
 * Checks a team name that came from outside: it must be a name Claude Code could have
 * written (letters, digits, `-`, `_`), which also keeps it one plain path segment.
 */
export function assertClaudeTeamName(name: string): string {
  if (typeof name !== 'string' || !isClaudeTeamName(name)) {
    throw new TeamkitError(
      'INVALID_INPUT',
      `${JSON.stringify(name)} is not a Claude Code team name; names are letters, digits, "-" and "_" (for example "session-7a052ba9"). List the teams with \`team run list --claude\`.`,
      { details: { team: name } },
    );
  }
  return name;
}

/** Every path of one Claude Code team, under its config folder. */
export interface ClaudeTeamPaths {
  readonly configDir: string;
  readonly team: string;
  /** `teams/<team>`, removed by Claude Code when the lead ends. */
  readonly teamFolder: string;
  /** `teams/<team>/config.json`: name, lead, lead process, members. */
  readonly configFile: string;
  /** `teams/<team>/inboxes`: one JSON array per recipient. */
  readonly inboxesFolder: string;
  /** `tasks/<team>`: one `<id>.json` per task; kept after the team ends. */
  readonly taskListFolder: string;
  /** `tasks/<team>/.lock`: the empty file whose lock folder (`.lock.lock`) guards id allocation. */
  readonly taskListLock: string;
  /** `tasks/<team>/.highwatermark`: the highest id ever given out, once tasks were deleted. */
  readonly highWatermark: string;
}

/** The `teams/`, `tasks/` and `sessions/` folders of a config folder. */
export function claudeFolders(configDir: string): {
  teams: string;
  tasks: string;
  sessions: string;
} {
  return {
    teams: path.join(configDir, 'teams'),
    tasks: path.join(configDir, 'tasks'),
    sessions: path.join(configDir, 'sessions'),
  };
}

/** The paths of team `team` (checked with {@link assertClaudeTeamName}). */
export function claudeTeamPaths(configDir: string, team: string): ClaudeTeamPaths {
  assertClaudeTeamName(team);
  const folders = claudeFolders(configDir);
  const teamFolder = path.join(folders.teams, team);
  const taskListFolder = path.join(folders.tasks, sanitizePathComponent(team));
  return {
    configDir,
    team,
    teamFolder,
    configFile: path.join(teamFolder, 'config.json'),
    inboxesFolder: path.join(teamFolder, 'inboxes'),
    taskListFolder,
    taskListLock: path.join(taskListFolder, '.lock'),
    highWatermark: path.join(taskListFolder, '.highwatermark'),
  };
}

/** The inbox file of `member`, named the way Claude Code names it. */
export function inboxFileOf(paths: ClaudeTeamPaths, member: string): string {
  return path.join(paths.inboxesFolder, `${sanitizePathComponent(member)}.json`);
}

/** The file of task `id`. */
export function taskFileOf(paths: ClaudeTeamPaths, id: string): string {
  return path.join(paths.taskListFolder, `${sanitizePathComponent(id)}.json`);
}
