import type { TaskStatus } from '@teamkit/team-core';

/**
 * Whether a Claude Code team is running: `live` (its lead process is alive and started
 * when the team says), `finished` (the lead ended; the team folder is gone or left
 * behind), or `unknown` (the files do not say enough, e.g. another machine's process).
 */
export type ClaudeTeamStatus = 'live' | 'finished' | 'unknown';

/** Why a team got its {@link ClaudeTeamStatus}. */
export interface ClaudeTeamLiveness {
  readonly status: ClaudeTeamStatus;
  /** One sentence for people: what was checked and what it showed. */
  readonly reason: string;
  /** The lead's process id, when the team names one. */
  readonly leadPid?: number;
}

/** A Claude Code task status: the three Claude Code has, which Teamkit's statuses include. */
export type ClaudeTaskStatus = Extract<TaskStatus, 'pending' | 'in_progress' | 'completed'>;

/** One member of a Claude Code team, from `config.json`. */
export interface ClaudeTeamMember {
  /** The name messages and task owners use (`team-lead` for the lead). */
  readonly name: string;
  /** `<name>@<team>`. */
  readonly agentId: string;
  readonly isLead: boolean;
  readonly agentType?: string;
  readonly model?: string;
  readonly color?: string;
  /** `in-process` (inside the lead's process), `tmux` (its own pane) or `iterm2`. */
  readonly backendType?: string;
  /** `leader`, `in-process` or a tmux pane id such as `%3`. */
  readonly tmuxPaneId?: string;
  readonly cwd?: string;
  readonly joinedAt?: number;
  readonly isActive?: boolean;
  readonly planModeRequired?: boolean;
  /** The prompt the lead started the teammate with. */
  readonly prompt?: string;
  /** Fields this version of Teamkit does not know, kept as Claude Code wrote them. */
  readonly extra?: Readonly<Record<string, unknown>>;
}

/** One task of a Claude Code team, from `tasks/<team>/<id>.json`. */
export interface ClaudeTask {
  readonly id: string;
  readonly subject: string;
  readonly description: string;
  readonly activeForm?: string;
  readonly owner?: string;
  readonly status: ClaudeTaskStatus;
  readonly blocks: readonly string[];
  readonly blockedBy: readonly string[];
  readonly metadata?: Readonly<Record<string, unknown>>;
  /** Fields this version of Teamkit does not know, kept as Claude Code wrote them. */
  readonly extra?: Readonly<Record<string, unknown>>;
}

/** A control message carried as JSON in an inbox entry's `text` (idle, shutdown, assignment…). */
export interface ClaudeControlMessage {
  readonly type: string;
  readonly [field: string]: unknown;
}

/** One entry waiting in an inbox file (Claude Code removes entries once it delivered them). */
export interface ClaudeInboxEntry {
  readonly from: string;
  readonly text: string;
  readonly timestamp: string;
  readonly summary?: string;
  readonly color?: string;
  /** Claude Code's message id (`msg_id`), when the writer set one. */
  readonly msgId?: string;
  /** `text` parsed, when it is one of Claude Code's control messages. */
  readonly control?: ClaudeControlMessage;
}

/** The entries still in one recipient's inbox file. */
export interface ClaudeInbox {
  /** The file's name without `.json`: the recipient's (sanitised) name. */
  readonly recipient: string;
  /** True when no member of the team has this name: Claude Code made it for a bad name, or the member left. */
  readonly orphan: boolean;
  /** Entries not yet delivered, oldest first. */
  readonly pending: readonly ClaudeInboxEntry[];
  /** Entries Claude Code would drop as malformed (no `from`, `text` or `timestamp`). */
  readonly malformed: number;
}

/** A file that could not be read as Claude Code's format, even after retries. */
export interface ClaudeFileProblem {
  readonly file: string;
  readonly reason: string;
}

/** Something a reader or writer should know that did not stop it. */
export interface ClaudeWarning {
  /**
   * `UNCHECKED_VERSION`: the team's Claude Code version is not one Teamkit was checked
   * against. `NO_TEAMMATES`: the lead is alone, and a lead alone was seen not to read its
   * inbox. `LIVENESS_UNKNOWN`: the lead's process could not be checked from here.
   * `HIGH_WATERMARK_UNREADABLE`: `.highwatermark` could not be read; ids of deleted
   * tasks may be given out again.
   */
  readonly code:
    | 'UNCHECKED_VERSION'
    | 'NO_TEAMMATES'
    | 'LIVENESS_UNKNOWN'
    | 'HIGH_WATERMARK_UNREADABLE';
  readonly message: string;
}

/** Counts of a team's tasks by status. */
export interface ClaudeTaskCounts {
  readonly pending: number;
  readonly in_progress: number;
  readonly completed: number;
}

/** One Claude Code team in a listing. */
export interface ClaudeTeamSummary {
  /** The team's folder name (`session-<8 hex>` for Claude Code 2.1.178 and later). */
  readonly name: string;
  readonly liveness: ClaudeTeamLiveness;
  /** False once Claude Code removed the team folder; only the task list remains. */
  readonly hasConfig: boolean;
  readonly createdAt?: number;
  readonly leadSessionId?: string;
  /** The Claude Code version of the lead's session, when its session file says. */
  readonly version?: string;
  /** Members in the config (the lead included); 0 once the config is gone. */
  readonly memberCount: number;
  readonly taskCounts: ClaudeTaskCounts;
  /** Entries waiting in all inboxes. */
  readonly pendingMessages: number;
  /** The newest modification time among the team's files, in ms since the epoch. */
  readonly updatedAt: number;
  readonly warnings: readonly ClaudeWarning[];
}

/** Everything Teamkit can read of one Claude Code team. */
export interface ClaudeTeamView extends ClaudeTeamSummary {
  readonly description?: string;
  readonly leadAgentId?: string;
  readonly members: readonly ClaudeTeamMember[];
  /** Tasks Claude Code would accept, by id. */
  readonly tasks: readonly ClaudeTask[];
  /** The highest task id ever given out (from `.highwatermark` and the task files). */
  readonly highestTaskId: number;
  readonly inboxes: readonly ClaudeInbox[];
  /** Files that stayed torn or failed Claude Code's schema (Claude Code ignores them too). */
  readonly problems: readonly ClaudeFileProblem[];
  /** Unknown top-level fields of `config.json`, kept as written. */
  readonly extra?: Readonly<Record<string, unknown>>;
}

/** The teams under one config folder, and the files that could not be read. */
export interface ClaudeTeamListing {
  readonly configDir: string;
  /** Live teams first, then unknown, then finished; newest activity first within each. */
  readonly teams: readonly ClaudeTeamSummary[];
  readonly problems: readonly ClaudeFileProblem[];
}
