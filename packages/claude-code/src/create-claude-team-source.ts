import { TeamkitError } from '@teamkit/team-core';
import { assertClaudeTeamName, resolveClaudeConfigDir } from './claude-paths.js';
import type { ClaudeTeamListing, ClaudeTeamView } from './claude-team-view.js';
import { listClaudeTeams } from './list-claude-teams.js';
import { createProcessProbe, type ProcessProbe } from './process-probe.js';
import { type ReadTeamContext, readClaudeTeam } from './read-claude-team.js';
import type { TornReadRetry } from './read-json-with-retry.js';
import {
  type ClaudeTeamChange,
  type ClaudeTeamWatch,
  type ClaudeTeamWatchOptions,
  watchClaudeTeams,
} from './watch-claude-teams.js';

/** Options shared by {@link createClaudeTeamSource} and `createClaudeTeamWriter`. */
export interface ClaudeCodeOptions {
  /** Claude Code's config folder; default `$CLAUDE_CONFIG_DIR`, else `~/.claude`. */
  configDir?: string;
  /** The environment `configDir` is resolved from when not given. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** How processes are checked for liveness; tests pass their own. */
  probe?: ProcessProbe;
  /** How often a torn file is read again before it is reported. */
  retry?: TornReadRetry;
}

/**
 * The read API over Claude Code's agent teams. It never writes: the dashboard, the
 * CLI and anyone else can read live teams without disturbing Claude Code.
 */
export interface ClaudeTeamSource {
  /** The config folder read. */
  readonly configDir: string;
  /** Every team, live first, with files that could not be read. */
  listTeams(): Promise<ClaudeTeamListing>;
  /**
   * One team: members, tasks, entries waiting in inboxes, liveness, warnings and
   * problems. Throws `CLAUDE_TEAM_NOT_FOUND` when neither its folder nor its task list exists.
   */
  readTeam(name: string): Promise<ClaudeTeamView>;
  /** Reports every team (or `options.team`) once, then each change; see {@link ClaudeTeamWatchOptions}. */
  watch(
    listener: (change: ClaudeTeamChange) => void,
    options?: ClaudeTeamWatchOptions,
  ): ClaudeTeamWatch;
}

/** The context every read and write of one config folder shares. */
export function createReadContext(options: ClaudeCodeOptions = {}): ReadTeamContext {
  return {
    configDir: options.configDir ?? resolveClaudeConfigDir(options.env),
    probe: options.probe ?? createProcessProbe(),
    ...(options.retry === undefined ? {} : { retry: options.retry }),
  };
}

/** Reads one team or throws `CLAUDE_TEAM_NOT_FOUND`. */
export async function requireClaudeTeam(
  context: ReadTeamContext,
  name: string,
): Promise<ClaudeTeamView> {
  assertClaudeTeamName(name);
  const view = await readClaudeTeam(context, name);
  if (view === undefined) {
    throw new TeamkitError(
      'CLAUDE_TEAM_NOT_FOUND',
      `No Claude Code team "${name}" in ${context.configDir} (neither teams/${name} nor tasks/${name}). List the teams with \`team run list --claude\`; set CLAUDE_CONFIG_DIR if Claude Code uses another folder.`,
      { details: { team: name, configDir: context.configDir } },
    );
  }
  return view;
}

/** Creates the read API over the Claude Code teams of one config folder. */
export function createClaudeTeamSource(options: ClaudeCodeOptions = {}): ClaudeTeamSource {
  const context = createReadContext(options);
  return {
    configDir: context.configDir,
    listTeams: () => listClaudeTeams(context),
    readTeam: (name) => requireClaudeTeam(context, name),
    watch: (listener, watchOptions) => watchClaudeTeams(context, listener, watchOptions),
  };
}
