import { stat } from 'node:fs/promises';
import { TeamkitError } from '@teamkit/team-core';
import { resolveContainedRealPath } from '@teamkit/team-core/storage';
import { isCheckedClaudeCodeVersion } from './checked-versions.js';
import { type ClaudeTeamPaths, claudeTeamPaths } from './claude-paths.js';
import type { ClaudeTeamLiveness, ClaudeWarning } from './claude-team-view.js';
import { judgeLeadProcess } from './lead-liveness.js';
import { readLeadVersion } from './lead-session.js';
import { type ClaudeTeamConfig, parseTeamConfig } from './parse-team-config.js';
import type { ReadTeamContext } from './read-claude-team.js';
import { readJsonWithRetry } from './read-json-with-retry.js';

/** A team a write may go to: its paths, its config, and what the writer should be told. */
export interface WritableTeam {
  readonly paths: ClaudeTeamPaths;
  readonly config: ClaudeTeamConfig;
  readonly liveness: ClaudeTeamLiveness;
  readonly warnings: ClaudeWarning[];
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}

/**
 * Checks that a write to `team` can be read by somebody: the team's config must be
 * readable and its lead not known to be gone, and its folders must not lead outside the
 * config folder through a symlink. Throws a typed error otherwise; writes nothing.
 */
export async function requireWritableTeam(
  context: ReadTeamContext,
  team: string,
): Promise<WritableTeam> {
  const paths = claudeTeamPaths(context.configDir, team);
  await resolveContainedRealPath(context.configDir, 'teams', team, 'inboxes');
  await resolveContainedRealPath(context.configDir, 'tasks', team);
  const read = await readJsonWithRetry(paths.configFile, context.retry);
  if (read.kind === 'missing') {
    if (await exists(paths.taskListFolder)) {
      throw new TeamkitError(
        'CLAUDE_TEAM_NOT_LIVE',
        `Claude Code team "${team}" has ended: its team folder is gone and only its task list remains. Nothing would read a message or a task; start a new Claude Code session instead.`,
        { details: { team, configDir: context.configDir } },
      );
    }
    throw new TeamkitError(
      'CLAUDE_TEAM_NOT_FOUND',
      `No Claude Code team "${team}" in ${context.configDir}. List the teams with \`team run list --claude\`; set CLAUDE_CONFIG_DIR if Claude Code uses another folder.`,
      { details: { team, configDir: context.configDir } },
    );
  }
  const parsed =
    read.kind === 'ok'
      ? parseTeamConfig(read.value, team)
      : ({ ok: false, reason: read.reason } as const);
  if (!parsed.ok) {
    throw new TeamkitError(
      'CORRUPT_DOCUMENT',
      `${paths.configFile} cannot be read (${parsed.reason}); nothing was written. Claude Code rewrites it in place: try again in a moment.`,
      { details: { file: paths.configFile } },
    );
  }
  const { config } = parsed;
  const liveness = judgeLeadProcess(config.leadProcess, context.probe);
  if (liveness.status === 'finished') {
    throw new TeamkitError(
      'CLAUDE_TEAM_NOT_LIVE',
      `Claude Code team "${team}" is not running (${liveness.reason}); nothing would read the write, so nothing was written.`,
      { details: { team, reason: liveness.reason } },
    );
  }
  const warnings: ClaudeWarning[] = [];
  if (liveness.status === 'unknown') {
    warnings.push({
      code: 'LIVENESS_UNKNOWN',
      message: `Whether team "${team}" is running could not be checked (${liveness.reason}); the write was made anyway.`,
    });
  }
  if (config.leadProcess !== undefined) {
    const version = await readLeadVersion(context.configDir, {
      pid: config.leadProcess.pid,
      ...(config.leadSessionId === undefined ? {} : { sessionId: config.leadSessionId }),
    });
    if (version !== undefined && !isCheckedClaudeCodeVersion(version)) {
      warnings.push({
        code: 'UNCHECKED_VERSION',
        message: `The lead runs Claude Code ${version}; Teamkit's writes were checked against other versions.`,
      });
    }
  }
  return { paths, config, liveness, warnings };
}
