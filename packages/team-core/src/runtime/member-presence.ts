import { isSignallablePid, START_TOLERANCE_MS } from '../processes/check-recorded-process.js';
import { readProcessFacts } from '../processes/process-facts.js';
import { type MemberPresence, MemberPresenceSchema } from '../schema/member-presence.js';
import { runKeys } from '../storage/run-keys.js';
import { putDocument, readDocument } from '../storage/store-documents.js';
import type { TeamkitStore } from '../storage/teamkit-store.js';

/**
 * A member process that blocks waiting for mail says so in its presence document
 * (`runtime/<run>/presence/<member>.json`, {@link MemberPresenceSchema}): `team inbox
 * --wait`, a one-shot agent between turns, the MCP server's `wait_for_mail`, the scripted
 * agent. The process host's supervisor treats such a member as idle for the parallel
 * bound; when `handoff` is true (a `team inbox --wait`), the host may hand messages over
 * directly.
 */
export type WaitingMarker = MemberPresence;

/** Records that `pid` (default: this process) is waiting for mail as `member`; returns a function that clears it. */
export async function markWaiting(
  runId: string,
  member: string,
  options: { pid?: number; handoff: boolean; store: TeamkitStore },
): Promise<() => Promise<void>> {
  const { store } = options;
  const key = runKeys(runId).presence(member);
  const marker: WaitingMarker = {
    version: 1,
    pid: options.pid ?? process.pid,
    since: Date.now(),
    handoff: options.handoff,
  };
  await putDocument(store, key, MemberPresenceSchema, marker);
  return async () => {
    const current = await readDocument(store, key, MemberPresenceSchema).catch(() => undefined);
    if (current?.value.pid === marker.pid && current.value.since === marker.since)
      await store.remove(key).catch(() => {});
  };
}

/** The member's presence when its process is still alive; `undefined` otherwise or when unreadable. */
export async function readWaitingMarker(
  runId: string,
  member: string,
  store: TeamkitStore,
): Promise<WaitingMarker | undefined> {
  try {
    const stored = await readDocument(store, runKeys(runId).presence(member), MemberPresenceSchema);
    return stored !== undefined && isWriterAlive(stored.value) ? stored.value : undefined;
  } catch {
    // A corrupt or planted presence file means nobody is known to wait.
    return undefined;
  }
}

/**
 * Whether the process that wrote a marker still runs: a pid above 1 that exists and
 * started before the marker was written (a later process with the same pid is not it).
 */
function isWriterAlive(marker: WaitingMarker): boolean {
  if (!isSignallablePid(marker.pid)) return false;
  const facts = readProcessFacts(marker.pid);
  return (
    facts !== undefined &&
    facts.state !== 'Z' &&
    facts.startedAt <= marker.since + START_TOLERANCE_MS
  );
}
