import type {
  DeliverInput,
  DeliveryOutcome,
  InterruptOutcome,
  SpawnMemberInput,
  TeamHostV1,
} from '@teamkit/team-core';
import type { AgentScript } from './scripted-agent.js';

// The public types of the test host (createTestHost in create-test-host.ts).

/** Which optional {@link TeamHostV1} methods the test host has; each defaults to `true`. */
export interface TestHostCapabilities {
  interrupt?: boolean;
  stopMember?: boolean;
  attachCommand?: boolean;
}

/** Options for {@link createTestHost}. */
export interface TestHostOptions {
  /**
   * The script each member runs, by member name, or a function that picks one from the
   * spawn input. A member without a script gets a passive session that only collects
   * deliveries.
   */
  agents?: Record<string, AgentScript> | ((input: SpawnMemberInput) => AgentScript | undefined);
  /** The clock for {@link TestHostCall.at}, in milliseconds since the epoch; `Date.now` by default. */
  now?: () => number;
  /** Set a capability to `false` to leave that optional method off the host. */
  capabilities?: TestHostCapabilities;
  /**
   * Called when a session becomes idle: its script waits for a delivery or returns, or a
   * passive session was spawned. A runtime's `onMemberIdle` goes here (see {@link TestHost.setIdleHandler}).
   */
  onIdle?: IdleHandler;
}

/** What the test host calls when a session becomes idle. */
export type IdleHandler = (sessionId: string) => unknown;

interface CallBase {
  /** When the call was made, from the host's clock. */
  at: number;
  /** The error the call threw, once it has settled with one. */
  error?: unknown;
}

/**
 * One recorded call to the host, in the order the calls were made. The entry is added
 * when the call starts; `outcome` (or `error`) is filled in when it settles.
 */
export type TestHostCall =
  | (CallBase & {
      type: 'spawn';
      member: string;
      input: SpawnMemberInput;
      sessionId?: string;
      outcome?: { sessionId: string };
    })
  | (CallBase & {
      type: 'deliver';
      sessionId: string;
      member?: string;
      input: DeliverInput;
      outcome?: DeliveryOutcome;
    })
  | (CallBase & { type: 'isAlive'; sessionId: string; member?: string; outcome?: boolean })
  | (CallBase & {
      type: 'interrupt';
      sessionId: string;
      member?: string;
      outcome?: InterruptOutcome;
    })
  | (CallBase & { type: 'stop'; sessionId: string; member?: string; outcome?: undefined })
  | (CallBase & {
      type: 'attach';
      sessionId: string;
      member?: string;
      outcome?: string[] | undefined;
    });

/** An error a scripted agent threw, with the session it crashed. */
export interface TestHostScriptError {
  sessionId: string;
  member: string;
  error: unknown;
}

/** Options for {@link TestHost.settled}. */
export interface SettledOptions {
  /** How long to wait for running scripts before rejecting; 10000 ms when omitted. */
  timeoutMs?: number;
}

/**
 * An in-memory {@link TeamHostV1} whose members are scripted agents, with a log of
 * every call and controls that simulate busy, slow, failing and crashing sessions.
 * Controls take a member name (its current session) or a session id.
 */
export interface TestHost extends TeamHostV1 {
  readonly hostId: 'test';
  /** Every host call so far, in call order. */
  readonly calls: readonly TestHostCall[];
  /** Errors thrown by scripts; each one crashed its session. */
  readonly scriptErrors: readonly TestHostScriptError[];
  /** While busy, `deliver` answers `deferred` and hands the script nothing. */
  setBusy(target: string, busy: boolean): void;
  /** Makes `deliver` to the session wait `ms` milliseconds before answering; 0 resets. */
  setSlow(target: string, ms: number): void;
  /**
   * Makes the next `deliver` to the session throw `error` (a `HOST_FAILED` TeamkitError
   * by default) without handing anything over; the session stays alive.
   */
  failNextDelivery(target: string, error?: unknown): void;
  /** Kills the session: `isAlive` turns false, the script's signal aborts, deliveries throw. */
  crash(target: string): void;
  /** The member's most recent session id, or `undefined` if it was never spawned. */
  sessionOf(member: string): string | undefined;
  /** The member a session id belongs to, or `undefined` for an unknown id. */
  memberOf(sessionId: string): string | undefined;
  /** Every delivery handed to the session so far, oldest first. */
  deliveriesOf(target: string): readonly DeliverInput[];
  /** Resolves once every script started so far (and any they led to) has ended. */
  settled(options?: SettledOptions): Promise<void>;
  /** Sets (or clears) the idle handler, e.g. `host.setIdleHandler((id) => runtime.onMemberIdle(id))`. */
  setIdleHandler(handler: IdleHandler | undefined): void;
  /** Errors thrown by the idle handler, with the session that was idle. */
  readonly idleHandlerErrors: readonly { sessionId: string; error: unknown }[];
}
