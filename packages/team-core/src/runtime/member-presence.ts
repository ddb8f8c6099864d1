import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isSignallablePid, START_TOLERANCE_MS } from '../processes/check-recorded-process.js';
import { readProcessFacts } from '../processes/process-facts.js';

/**
 * A member process that blocks waiting for mail says so in
 * `runtime/<run>/presence/<member>.json` (`{ pid, handoff }`): `team inbox --wait`, the
 * MCP server's `wait_for_mail`, the scripted agent. The process host's supervisor treats
 * such a member as idle (its presence) for the parallel bound; when `handoff` is true (a
 * `team inbox --wait`), the host may hand messages over directly.
 */
export interface WaitingMarker {
  version: 1;
  pid: number;
  since: number;
  handoff: boolean;
}

function safeName(name: string): string {
  if (!/^[a-z0-9][a-z0-9-]*$/i.test(name)) throw new Error(`unsafe member name ${name}`);
  return name;
}

/** Where a member's waiting marker lives. */
export function waitingMarkerPath(home: string, runId: string, member: string): string {
  return path.join(home, 'runtime', runId, 'presence', `${safeName(member)}.json`);
}

/** Records that `pid` is waiting for mail as `member`; returns a function that clears it. */
export async function markWaiting(
  home: string,
  runId: string,
  member: string,
  options: { pid?: number; handoff: boolean },
): Promise<() => Promise<void>> {
  const file = waitingMarkerPath(home, runId, member);
  await mkdir(path.dirname(file), { recursive: true });
  const marker: WaitingMarker = {
    version: 1,
    pid: options.pid ?? process.pid,
    since: Date.now(),
    handoff: options.handoff,
  };
  const temp = `${file}.${randomUUID()}.tmp`;
  await writeFile(temp, JSON.stringify(marker));
  await rename(temp, file);
  return async () => {
    const current = await readWaitingMarker(home, runId, member);
    if (current?.pid === marker.pid && current.since === marker.since)
      await unlink(file).catch(() => {});
  };
}

/** The member's waiting marker when its process is still alive, else `undefined`. */
export async function readWaitingMarker(
  home: string,
  runId: string,
  member: string,
): Promise<WaitingMarker | undefined> {
  try {
    const marker = JSON.parse(
      await readFile(waitingMarkerPath(home, runId, member), 'utf8'),
    ) as WaitingMarker;
    return isWriterAlive(marker) ? marker : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether the process that wrote a marker still runs: a pid above 1 that exists and
 * started before the marker was written (a later process with the same pid is not it).
 */
function isWriterAlive(marker: WaitingMarker): boolean {
  if (!isSignallablePid(marker.pid) || typeof marker.since !== 'number') return false;
  const facts = readProcessFacts(marker.pid);
  return (
    facts !== undefined &&
    facts.state !== 'Z' &&
    facts.startedAt <= marker.since + START_TOLERANCE_MS
  );
}
