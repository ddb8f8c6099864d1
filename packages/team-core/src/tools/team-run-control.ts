import type { TeamLibrary } from '../registry/team-library.js';
import type { StartRunResult } from '../runtime/internal/start-run.js';
import type { StopRunReport } from '../runtime/internal/stop-run.js';

/** One team a caller can start. */
export interface StartableTeamLine {
  id: string;
  lead: string;
  members: string[];
  description?: string;
  isDefault: boolean;
}

/**
 * Starting and ending runs, which need a host that spawns members: the OpenCode plugin
 * supplies it (child sessions); an MCP server supplies it only when it is given one.
 * Tools that need it are not offered without it.
 */
export interface TeamRunControl {
  /** The teams the caller's project can start. */
  listTeams(): Promise<StartableTeamLine[]>;
  /** Starts `team` (the default team when `undefined`) with the caller as its lead. */
  startRun(team: string | undefined): Promise<StartRunResult>;
  /** Ends the run: members, panes, open tasks, worktrees by the safety rule. */
  stopRun(runId: string, options: { force: boolean }): Promise<StopRunReport>;
}

/** The enabled teams of `library` as {@link TeamRunControl.listTeams} answers them. */
export function startableTeams(library: TeamLibrary): StartableTeamLine[] {
  return library.teams
    .filter((team) => team.enabled)
    .map((team) => ({
      id: team.id,
      lead: team.spec.lead,
      members: team.spec.members.map((member) => member.name),
      ...(team.spec.description ? { description: team.spec.description } : {}),
      isDefault: library.defaultLead?.teamId === team.id,
    }));
}
