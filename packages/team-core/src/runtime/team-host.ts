import { TeamkitError } from '../errors/index.js';
import type { Message } from '../schema/index.js';

/** The one version of the host contract this release speaks. */
export const TEAM_HOST_SPECIFICATION_VERSION = 'team-host-v1';

/** What the runtime tells a host when it starts a member. */
export interface SpawnMemberInput {
  runId: string;
  teamName: string;
  member: {
    name: string;
    role: string;
    isLead: boolean;
    model?: string;
    color?: string;
    /** The member's prompt followed by the team-protocol addendum. */
    prompt: string;
  };
  /** Where the member works: its worktree, else the repository, else the home folder. */
  cwd: string;
  /**
   * `TEAMKIT_HOME`, `TEAMKIT_RUN`, `TEAMKIT_MEMBER` and `TEAMKIT_TOKEN` (the member's
   * secret, fresh for this spawn; only its hash is on disk), for members that run `team`
   * commands. A host puts them in the member's process environment and nowhere else.
   */
  env: Record<string, string>;
  /** The lead's session, for hosts whose members are child sessions of the lead. */
  leadSessionId?: string;
}

/** What the runtime hands a host to put in front of a live member. */
export interface DeliverInput {
  runId: string;
  member: string;
  sessionId: string;
  messages: Message[];
  /** The messages rendered as one block of text, ready to show the agent. */
  text: string;
}

/** What a host answers to `deliver`: shown to the session, or not now (it is busy). */
export type DeliveryOutcome = 'delivered' | 'deferred';

/** What a host answers to `interrupt`. */
export type InterruptOutcome = 'interrupted' | 'idle' | 'unknown';

/**
 * The contract a harness implements so the runtime can drive its agents. Only the
 * runtime calls it. Optional methods that are missing make the runtime raise
 * `HOST_CAPABILITY_UNSUPPORTED` when they are needed, never a silent no-op.
 */
export interface TeamHostV1 {
  readonly specificationVersion: typeof TEAM_HOST_SPECIFICATION_VERSION;
  /** A stable id of the harness, recorded in run state (e.g. `opencode`, `process`). */
  readonly hostId: string;
  /** Starts a member's agent session or process and returns its session id. */
  spawnMember(input: SpawnMemberInput): Promise<{ sessionId: string }>;
  /**
   * Hands messages to a live session. `delivered` means the host confirmed the session
   * received them (the runtime then acknowledges them); `deferred` means the session is
   * busy and nothing was shown (the runtime releases them for a later delivery).
   */
  deliver(input: DeliverInput): Promise<DeliveryOutcome>;
  /** Whether the session or process is still alive; used by resume and sweep. */
  isAlive(sessionId: string): Promise<boolean>;
  /** Interrupts the session's current turn. */
  interrupt?(sessionId: string): Promise<InterruptOutcome>;
  /** Ends the session or process for good (after an approved shutdown or a forced stop). */
  stopMember?(sessionId: string): Promise<void>;
  /** The command a tmux pane runs to show the session, as an argument array. */
  attachCommand?(sessionId: string): string[] | undefined;
}

/** The optional methods of {@link TeamHostV1}. */
export type TeamHostCapability = 'interrupt' | 'stopMember' | 'attachCommand';

/**
 * Returns the host's optional method bound to the host, or throws
 * `HOST_CAPABILITY_UNSUPPORTED` naming the host and the capability.
 */
export function requireHostCapability<K extends TeamHostCapability>(
  host: TeamHostV1,
  capability: K,
): NonNullable<TeamHostV1[K]> {
  const method = host[capability];
  if (typeof method !== 'function') {
    throw new TeamkitError(
      'HOST_CAPABILITY_UNSUPPORTED',
      `The host "${host.hostId}" does not support ${capability}; use a host that implements it or avoid the operation.`,
      { details: { hostId: host.hostId, capability } },
    );
  }
  return (method as (...args: never[]) => unknown).bind(host) as NonNullable<TeamHostV1[K]>;
}

/** Checks that `value` is a host this release can drive (`team-host-v1`). */
export function assertTeamHost(value: TeamHostV1): TeamHostV1 {
  if (value?.specificationVersion !== TEAM_HOST_SPECIFICATION_VERSION) {
    throw new TeamkitError(
      'INVALID_INPUT',
      `The host speaks ${JSON.stringify(value?.specificationVersion)}; this Teamkit drives ${TEAM_HOST_SPECIFICATION_VERSION}.`,
      { details: { specificationVersion: value?.specificationVersion } },
    );
  }
  for (const method of ['spawnMember', 'deliver', 'isAlive'] as const) {
    if (typeof value[method] !== 'function') {
      throw new TeamkitError(
        'INVALID_INPUT',
        `The host "${value.hostId}" lacks the required method ${method}.`,
        {
          details: { hostId: value.hostId, method },
        },
      );
    }
  }
  return value;
}
