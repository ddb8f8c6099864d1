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
