import { setTimeout as delay } from 'node:timers/promises';
import type { TeamkitStore } from '@teamkit/team-core/storage';
import { z } from 'zod';

const HeartbeatSchema = z.strictObject({
  version: z.literal(1),
  machine: z.string(),
  sessionId: z.string(),
  /** The writer's clock, for people reading it; liveness never compares it with another clock. */
  at: z.number(),
});

/** How long a heartbeat may stay unchanged before its member counts as gone (30 s). */
export const DEFAULT_HEARTBEAT_STALE_MS = 30_000;

/** Where a member's heartbeat lives in the shared store. */
export const heartbeatKey = (runRoot: string, member: string) =>
  `${runRoot}/heartbeats/${member}.json`;

/**
 * Writes the heartbeat of a member whose process runs on this machine: one unconditional
 * put per supervisor pass, each a new revision that the other machines watch move.
 */
export async function beatMember(
  runId: string,
  member: string,
  beat: { machine: string; sessionId: string; store: TeamkitStore },
): Promise<void> {
  const { putDocument, runKeys } = await import('@teamkit/team-core/storage');
  await putDocument(beat.store, heartbeatKey(runKeys(runId).root, member), HeartbeatSchema, {
    version: 1,
    machine: beat.machine,
    sessionId: beat.sessionId,
    at: Date.now(),
  });
}

/**
 * The revision of a member's heartbeat for `sessionId`, or `undefined` when it has none
 * (absent, unreadable, or written for an earlier session of the member). A store that does
 * not answer throws `STORE_UNAVAILABLE`: silence of the store is no silence of the member.
 */
async function heartbeatRevision(
  store: TeamkitStore,
  runId: string,
  member: string,
  sessionId: string,
): Promise<string | undefined> {
  const { readDocument, runKeys } = await import('@teamkit/team-core/storage');
  const { isTeamkitError } = await import('@teamkit/team-core/errors');
  try {
    const stored = await readDocument(
      store,
      heartbeatKey(runKeys(runId).root, member),
      HeartbeatSchema,
    );
    // A heartbeat of an earlier session of the member says nothing about this one.
    return stored?.value.sessionId === sessionId ? stored.revision : undefined;
  } catch (error) {
    // Judged dead for it, a member whose machine beats on would be marked errored.
    if (isTeamkitError(error, 'STORE_UNAVAILABLE')) throw error;
    return undefined;
  }
}

/**
 * The judge's rule for a command that looks once (`team run resume`) rather than every
 * pass: watches the member's heartbeat until its revision moves (alive) or stays the same
 * for longer than the stale period on this process's clock (gone). A member whose machine
 * beats answers within a few beats; a silent one costs the whole stale period. A store that
 * does not answer rejects with `STORE_UNAVAILABLE` (resume reports the member as unknown).
 */
export async function watchHeartbeat(
  store: TeamkitStore,
  runId: string,
  member: string,
  sessionId: string,
  options: { staleMs?: number; pollMs?: number } = {},
): Promise<boolean> {
  const staleMs = options.staleMs ?? DEFAULT_HEARTBEAT_STALE_MS;
  const pollMs = options.pollMs ?? 250;
  const first = await heartbeatRevision(store, runId, member, sessionId);
  const since = Date.now();
  for (;;) {
    await delay(pollMs);
    if ((await heartbeatRevision(store, runId, member, sessionId)) !== first) return true;
    if (Date.now() - since > staleMs) return false;
  }
}

/** Judges members of other machines by their heartbeats, on this process's own clock. */
export interface HeartbeatJudge {
  /** False once the member's heartbeat for `sessionId` stayed unchanged (or absent) longer than the stale period. */
  isAlive(runId: string, member: string, sessionId: string): Promise<boolean>;
}

/**
 * A judge of heartbeats with a bounded age: a member is alive while its heartbeat key
 * keeps getting new revisions. The age is measured from when this judge first saw the
 * current revision, on its own clock, so clocks of different machines are never compared
 * (the same rule as the NATS store's locks). A member seen for the first time gets one
 * full period.
 */
export function createHeartbeatJudge(
  store: TeamkitStore,
  options: { staleMs?: number; now?: () => number } = {},
): HeartbeatJudge {
  const staleMs = options.staleMs ?? DEFAULT_HEARTBEAT_STALE_MS;
  const now = options.now ?? Date.now;
  const seen = new Map<string, { revision: string | undefined; since: number }>();
  return {
    async isAlive(runId, member, sessionId) {
      const revision = await heartbeatRevision(store, runId, member, sessionId);
      const key = `${runId}/${member}/${sessionId}`;
      const last = seen.get(key);
      if (last === undefined || last.revision !== revision) {
        seen.set(key, { revision, since: now() });
        return true;
      }
      return now() - last.since <= staleMs;
    },
  };
}

/** The variable that shortens or lengthens the stale period of heartbeats (milliseconds). */
export const HEARTBEAT_STALE_VARIABLE = 'TEAMKIT_HEARTBEAT_STALE_MS';

/**
 * The supervisor options of a machine in a shared run: its id and a heartbeat judge whose
 * stale period is `TEAMKIT_HEARTBEAT_STALE_MS` (at least 1 000 ms) or 30 s. Nothing for a
 * home whose runs live in its folder.
 */
export function machineSupervision(
  store: TeamkitStore,
  machine: string | undefined,
  env: NodeJS.ProcessEnv,
): { machine?: string; heartbeats?: HeartbeatJudge } {
  if (machine === undefined) return {};
  return { machine, heartbeats: createHeartbeatJudge(store, { staleMs: heartbeatStaleMs(env) }) };
}

/** The stale period of heartbeats: `TEAMKIT_HEARTBEAT_STALE_MS` (at least 1 000 ms) or 30 s. */
export function heartbeatStaleMs(env: NodeJS.ProcessEnv): number {
  const given = Number(env[HEARTBEAT_STALE_VARIABLE]);
  return Number.isFinite(given) && given >= 1_000 ? given : DEFAULT_HEARTBEAT_STALE_MS;
}
