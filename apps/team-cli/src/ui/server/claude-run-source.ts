import {
  type ClaudeCodeOptions,
  createClaudeTeamSource,
  createClaudeTeamWriter,
} from '@teamkit/claude-code';
import { openClaudeLiveRun } from './claude-live-run.js';
import { runClaudeAction } from './claude-run-actions.js';
import { claudeRunSummary } from './claude-team-views.js';
import type { LiveRunSource } from './live-run-source.js';

/** Options of {@link createClaudeRunSource}. */
export interface ClaudeRunSourceOptions extends ClaudeCodeOptions {
  /** How long a team's file events settle before it is read again; default 50 ms. */
  debounceMs?: number;
  /** How long a write waits for Claude Code's lock; default 15 s. */
  lockTimeoutMs?: number;
}

/**
 * Claude Code's own agent teams as runs of the UI, beside Teamkit's: the teams under
 * `$CLAUDE_CONFIG_DIR` (else `~/.claude`, as `team … --claude` reads them), each kept
 * live by `@teamkit/claude-code`'s watch, and written to only through its writer.
 */
export function createClaudeRunSource(options: ClaudeRunSourceOptions = {}): LiveRunSource {
  const { debounceMs, lockTimeoutMs, ...shared } = options;
  const source = createClaudeTeamSource(shared);
  const writer = createClaudeTeamWriter({
    ...shared,
    ...(lockTimeoutMs === undefined ? {} : { lockTimeoutMs }),
  });
  return {
    id: 'claude-code',
    label: 'Claude Code',
    async listRuns() {
      const listing = await source.listTeams();
      return listing.teams.map(claudeRunSummary);
    },
    openLive(team, live) {
      return openClaudeLiveRun({
        source,
        team,
        ...(debounceMs === undefined ? {} : { debounceMs }),
        ...(live.reconcileMs === undefined ? {} : { reconcileMs: live.reconcileMs }),
        ...(live.onError === undefined ? {} : { onError: live.onError }),
      });
    },
    runAction: (team, action, input) => runClaudeAction(writer, team, action, input),
  };
}
