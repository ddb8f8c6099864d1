/**
 * How a failure should be treated by a caller: the CLI maps each kind to one exit code.
 */
export type TeamkitErrorKind = 'usage' | 'not_found' | 'conflict' | 'refused' | 'internal';

/**
 * Every stable error code Teamkit raises, with its kind and what it means.
 * Codes never change meaning once published; new failures get new codes.
 */
export const TEAMKIT_ERROR_CODES = {
  INVALID_INPUT: { kind: 'usage', description: 'An argument or document field failed validation.' },
  PATH_TRAVERSAL: {
    kind: 'refused',
    description: 'A name or path would escape the folder it must stay inside.',
  },
  LOCK_TIMEOUT: {
    kind: 'conflict',
    description: 'A lock could not be acquired before the timeout.',
  },
  LOCK_COMPROMISED: {
    kind: 'conflict',
    description: 'A held lock was lost (removed or taken over); the guarded write was refused.',
  },
  CORRUPT_DOCUMENT: {
    kind: 'internal',
    description:
      'A persisted document is torn, not JSON, or fails its schema; it is left in place.',
  },
  UNSUPPORTED_VERSION: {
    kind: 'refused',
    description: 'A persisted document was written by a newer Teamkit; it is left untouched.',
  },
  DOCUMENT_NOT_FOUND: { kind: 'not_found', description: 'A persisted document does not exist.' },
  ALREADY_EXISTS: {
    kind: 'conflict',
    description: 'A file that must be created fresh already exists.',
  },
  IO_ERROR: { kind: 'internal', description: 'The filesystem refused an operation.' },
  STORE_UNAVAILABLE: {
    kind: 'internal',
    description:
      'A networked store was unreachable; the operation may or may not have been applied.',
  },
  REVISION_CONFLICT: {
    kind: 'conflict',
    description: 'A stored value changed since it was read; the write was refused.',
  },

  RUN_NOT_FOUND: { kind: 'not_found', description: 'No team run with that id exists.' },
  RUN_NOT_ACTIVE: {
    kind: 'refused',
    description:
      'The run is completed, deleting, deleted, failed or orphaned and accepts no writes.',
  },
  UNKNOWN_MEMBER: { kind: 'not_found', description: 'The team has no member with that name.' },
  UNKNOWN_RECIPIENT: {
    kind: 'not_found',
    description: 'A message names a recipient that is not an active member of the run.',
  },
  DUPLICATE_MESSAGE_ID: {
    kind: 'conflict',
    description: 'A message with that id already exists for the recipient.',
  },
  PAYLOAD_TOO_LARGE: { kind: 'refused', description: 'A message body is over the byte cap.' },
  RECIPIENT_BACKPRESSURE: {
    kind: 'refused',
    description: "The recipient's unread bytes would pass the unread cap.",
  },
  BROADCAST_NOT_PERMITTED: {
    kind: 'refused',
    description: 'The team policy allows broadcast to the lead only.',
  },
  UNKNOWN_MESSAGE: { kind: 'not_found', description: 'No message with that id is in the inbox.' },
  UNKNOWN_REQUEST: {
    kind: 'not_found',
    description: 'No shutdown or permission request with that id is in the run.',
  },
  UNKNOWN_CRITERION: {
    kind: 'not_found',
    description: "The run's goal has no acceptance criterion with that id.",
  },

  UNKNOWN_TASK: { kind: 'not_found', description: 'No task with that id exists in the run.' },
  UNKNOWN_ARTIFACT: {
    kind: 'not_found',
    description: 'The run has no artifact (or no version of it) by that name.',
  },
  INVALID_TRANSITION: {
    kind: 'refused',
    description: 'A status change is not allowed by the status machine.',
  },
  ALREADY_CLAIMED: { kind: 'conflict', description: 'Another member claimed the task first.' },
  BLOCKED_BY: { kind: 'refused', description: 'The task still has open blockers.' },
  NOT_OWNER: { kind: 'refused', description: 'Only the owner (or the lead) may change the task.' },
  NOT_LEAD: { kind: 'refused', description: 'The operation is reserved for the team lead.' },
  DEPENDENCY_CYCLE: { kind: 'refused', description: 'The dependency would create a cycle.' },

  TEAM_NOT_FOUND: { kind: 'not_found', description: 'No effective team has that id.' },
  INVALID_TEAM: { kind: 'refused', description: 'A team package is invalid.' },
  INVALID_CONFIG: {
    kind: 'refused',
    description: 'A config source is not valid JSON/JSONC or fails its schema.',
  },
  BOUND_EXCEEDED: {
    kind: 'refused',
    description: 'A run bound (members, messages, turns, time) was hit.',
  },

  GIT_UNAVAILABLE: { kind: 'internal', description: 'git is not installed or not on PATH.' },
  NOT_A_GIT_REPO: { kind: 'refused', description: 'The folder is not inside a git repository.' },
  GIT_FAILED: { kind: 'internal', description: 'A git command failed.' },
  WORKTREE_COLLISION: {
    kind: 'conflict',
    description: 'The worktree path or branch is already taken.',
  },
  MERGE_CONFLICT: {
    kind: 'conflict',
    description:
      'Merging work conflicts with what is already there; the merge was aborted and nothing changed.',
  },
  WORK_NOT_IN_REPOSITORY: {
    kind: 'not_found',
    description: "An approved task's commit is not in this repository: fetch its branch first.",
  },
  WORKTREE_HAS_UNSAVED_WORK: {
    kind: 'refused',
    description: 'The worktree is dirty or its branch has unmerged, unpushed commits.',
  },
  TMUX_UNAVAILABLE: { kind: 'internal', description: 'tmux is not installed or not reachable.' },
  TMUX_FAILED: { kind: 'internal', description: 'A tmux command failed.' },

  HOST_CAPABILITY_UNSUPPORTED: {
    kind: 'refused',
    description: 'The host does not implement an optional capability that was asked for.',
  },
  HOST_FAILED: { kind: 'internal', description: 'The host adapter failed to carry out a call.' },
  HOST_MISMATCH: {
    kind: 'refused',
    description: 'The run is hosted by another kind of host; resume or sweep it from there.',
  },
  AGENT_NOT_CONFIGURED: {
    kind: 'usage',
    description:
      'A run was started without an agent: no --agent or --agent-cmd, and the team names none.',
  },
  AGENT_NOT_FOUND: {
    kind: 'not_found',
    description: "An agent preset's command line program is not installed (not on PATH).",
  },
  PERMISSION_DENIED: { kind: 'refused', description: 'The caller may not perform this operation.' },
  IDENTITY_MISMATCH: {
    kind: 'refused',
    description: 'The caller claimed an identity other than the one its host assigned.',
  },

  CLAUDE_TEAM_NOT_FOUND: {
    kind: 'not_found',
    description: 'No Claude Code team with that name is in the Claude Code config folder.',
  },
  CLAUDE_TEAM_NOT_LIVE: {
    kind: 'refused',
    description: "The Claude Code team's lead is not running, so nothing would read the write.",
  },
  BROADCAST_UNSUPPORTED: {
    kind: 'refused',
    description:
      'The target takes no broadcast (Claude Code teams refuse `*`); send to each member.',
  },
  WRITE_NOT_VERIFIED: {
    kind: 'internal',
    description:
      'A write was made but reading it back did not show it; another writer may have replaced the file.',
  },
} as const satisfies Record<string, { kind: TeamkitErrorKind; description: string }>;

/** A stable error code; see {@link TEAMKIT_ERROR_CODES} for the meaning of each. */
export type TeamkitErrorCode = keyof typeof TEAMKIT_ERROR_CODES;
