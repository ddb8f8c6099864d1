import type { ClaudeTeamSource } from '@teamkit/claude-code';
import { TeamkitError } from '@teamkit/team-core';
import { UsageError } from '../../exit-codes.js';

const MIN_PREFIX = 4;

/**
 * The Claude Code team a command names: its full folder name, a unique prefix of it (of
 * at least four characters, with or without `session-`), or, when none is given, the
 * one live team there is.
 */
export async function resolveClaudeTeam(
  source: ClaudeTeamSource,
  given: string | undefined,
): Promise<string> {
  const { teams } = await source.listTeams();
  if (given === undefined) {
    const live = teams.filter((team) => team.liveness.status === 'live');
    if (live.length === 1) return (live[0] as (typeof live)[number]).name;
    throw new UsageError(
      live.length === 0
        ? `No Claude Code team is running in ${source.configDir}; name one (team run list --claude).`
        : `${live.length} Claude Code teams are running (${live.map((team) => team.name).join(', ')}); name one.`,
    );
  }
  if (teams.some((team) => team.name === given)) return given;
  const matches =
    given.length < MIN_PREFIX
      ? []
      : teams.filter(
          (team) =>
            team.name.startsWith(given) || team.name.replace(/^session-/, '').startsWith(given),
        );
  if (matches.length === 1) return (matches[0] as (typeof matches)[number]).name;
  if (matches.length > 1) {
    throw new TeamkitError(
      'INVALID_INPUT',
      `"${given}" matches ${matches.length} Claude Code teams (${matches.map((team) => team.name).join(', ')}); give more characters.`,
      { details: { team: given } },
    );
  }
  // Not in the listing (an ended team with no tasks, say): let the read decide.
  return given;
}
