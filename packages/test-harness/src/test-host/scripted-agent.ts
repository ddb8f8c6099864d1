import type { DeliverInput, SpawnMemberInput } from '@teamkit/team-core';

/** Options for {@link ScriptedAgentContext.nextDelivery}. */
export interface NextDeliveryOptions {
  /** How long to wait for a delivery before rejecting; 5000 ms when omitted. */
  timeoutMs?: number;
}

/**
 * What a scripted agent sees of its own session: the spawn input, the deliveries the
 * host handed it, and a signal that aborts when the session is stopped or crashed.
 */
export interface ScriptedAgentContext {
  /** The session id the test host gave this member (`test-<member>-<n>`). */
  readonly sessionId: string;
  /** What the runtime passed to `spawnMember`: member, cwd, prompt, and the `TEAMKIT_*` env. */
  readonly input: SpawnMemberInput;
  /** Every delivery handed to this session so far, oldest first. */
  readonly deliveries: readonly DeliverInput[];
  /** Aborted when the session is stopped, crashed or replaced by a new spawn of the member. */
  readonly signal: AbortSignal;
  /**
   * Resolves with the next delivery this script has not yet taken (deliveries that
   * arrived earlier are returned first, in order). Rejects when none arrives within
   * `timeoutMs`, or with the abort reason when the session ends.
   */
  nextDelivery(options?: NextDeliveryOptions): Promise<DeliverInput>;
}

/**
 * A scripted agent: an async function that plays one member. Returning leaves the
 * session alive and idle; throwing crashes the session and records the error in
 * `host.scriptErrors`.
 */
export type AgentScript = (agent: ScriptedAgentContext) => Promise<void>;
