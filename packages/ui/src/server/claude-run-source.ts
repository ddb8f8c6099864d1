import {
  type ClaudeCodeOptions,
  type ClaudeTeamStatus,
  type ClaudeTeamWatch,
  createClaudeTeamSource,
  createClaudeTeamWriter,
} from '@teamkit/claude-code';
import type { RunSummary } from '../protocol.js';
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
  /** How long the listing's watch runs after the runs view last asked for it; default 60 s. */
  listingIdleMs?: number;
  onError?: (error: unknown) => void;
}

const STATUS_ORDER: Record<ClaudeTeamStatus, number> = { live: 0, unknown: 1, finished: 2 };

/** Live teams first, then by their last change, as `team run list --claude` lists them. */
function byLiveness(a: RunSummary, b: RunSummary): number {
  const order = (run: RunSummary) => STATUS_ORDER[run.status as ClaudeTeamStatus] ?? 1;
  return order(a) - order(b) || b.updatedAt - a.updatedAt || a.runId.localeCompare(b.runId);
}

/**
 * Claude Code's own agent teams as runs of the UI, beside Teamkit's: the teams under
 * `$CLAUDE_CONFIG_DIR` (else `~/.claude`, as `team … --claude` reads them), each kept
 * live by `@teamkit/claude-code`'s watch, and written to only through its writer.
 *
 * The runs view asks for the list every few seconds. Rather than read every team each
 * time (ended teams keep their task lists, so a config folder gathers many), one watch of
 * all teams runs while the list is asked for: it reads a team again when its files
 * change, live teams every 2 s, the ended ones now and then.
 */
export function createClaudeRunSource(
  options: ClaudeRunSourceOptions = {},
): LiveRunSource & { close(): Promise<void> } {
  const { debounceMs, lockTimeoutMs, listingIdleMs, onError, ...shared } = options;
  const source = createClaudeTeamSource(shared);
  const writer = createClaudeTeamWriter({
    ...shared,
    ...(lockTimeoutMs === undefined ? {} : { lockTimeoutMs }),
  });
  let listing:
    | { watch: ClaudeTeamWatch; teams: Map<string, RunSummary>; idle?: NodeJS.Timeout }
    | undefined;

  const stopListing = () => {
    if (listing === undefined) return;
    clearTimeout(listing.idle);
    listing.watch.close();
    listing = undefined;
  };

  return {
    id: 'claude-code',
    label: 'Claude Code',
    async listRuns() {
      if (listing === undefined) {
        const teams = new Map<string, RunSummary>();
        const watch = source.watch(
          (change) => {
            if (change.type === 'removed') teams.delete(change.name);
            else teams.set(change.team.name, claudeRunSummary(change.team));
          },
          {
            ...(debounceMs === undefined ? {} : { debounceMs }),
            ...(onError === undefined ? {} : { onError }),
          },
        );
        listing = { watch, teams };
      }
      const current = listing;
      clearTimeout(current.idle);
      current.idle = setTimeout(stopListing, listingIdleMs ?? 60_000);
      current.idle.unref();
      await current.watch.ready;
      return [...current.teams.values()].sort(byLiveness);
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
    async close() {
      stopListing();
    },
  };
}
