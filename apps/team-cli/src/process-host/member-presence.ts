import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  isSignallablePid,
  type Message,
  readProcessFacts,
  START_TOLERANCE_MS,
} from '@teamkit/team-core';

/**
 * A member process that blocks waiting for mail says so in
 * `runtime/<run>/presence/<member>.json` (`{ pid, handoff }`). The supervisor treats such
 * a member as idle for the parallel bound; when `handoff` is true (a `team inbox --wait`),
 * the host may hand messages over directly through `runtime/<run>/handoff/<member>/`.
 */
export interface WaitingMarker {
  version: 1;
  pid: number;
  since: number;
  handoff: boolean;
}

/** What the host hands a waiting `team inbox --wait`. */
export interface Handoff {
  version: 1;
  messages: Message[];
  text: string;
}

function runRoot(home: string, runId: string): string {
  return path.join(home, 'runtime', runId);
}

function safeName(name: string): string {
  if (!/^[a-z0-9][a-z0-9-]*$/i.test(name)) throw new Error(`unsafe member name ${name}`);
  return name;
}

/** Where a member's waiting marker lives. */
export function waitingMarkerPath(home: string, runId: string, member: string): string {
  return path.join(runRoot(home, runId), 'presence', `${safeName(member)}.json`);
}

/** Where handoffs for a member are dropped. */
export function handoffFolder(home: string, runId: string, member: string): string {
  return path.join(runRoot(home, runId), 'handoff', safeName(member));
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

/** Drops a handoff for a waiting member; returns the file so the host can take it back. */
export async function dropHandoff(
  home: string,
  runId: string,
  member: string,
  handoff: Handoff,
): Promise<string> {
  const folder = handoffFolder(home, runId, member);
  await mkdir(folder, { recursive: true });
  const id = randomUUID();
  const temp = path.join(folder, `.${id}.tmp`);
  await writeFile(temp, JSON.stringify(handoff));
  const file = path.join(folder, `${Date.now()}-${id}.json`);
  await rename(temp, file);
  return file;
}

/** Handoffs a reader took, and the call that confirms it showed them. */
export interface TakenHandoffs {
  handoffs: Handoff[];
  /** Confirms the handoffs were shown; until then the host does not count them delivered. */
  confirm(): Promise<void>;
}

/**
 * Takes every handoff waiting for a member. Each file is first renamed aside, so the
 * host and the reader never both own one: whoever renames it first has it. The host
 * answers `delivered` only after the reader confirms (removes the renamed file).
 */
export async function takeHandoffs(
  home: string,
  runId: string,
  member: string,
): Promise<TakenHandoffs> {
  const folder = handoffFolder(home, runId, member);
  let names: string[];
  try {
    names = (await readdir(folder))
      .filter((name) => !name.startsWith('.') && name.endsWith('.json'))
      .sort();
  } catch {
    names = [];
  }
  const handoffs: Handoff[] = [];
  const claimed: string[] = [];
  for (const name of names) {
    const target = path.join(folder, `.taken-${name}`);
    try {
      await rename(path.join(folder, name), target);
    } catch {
      continue;
    }
    claimed.push(target);
    try {
      handoffs.push(JSON.parse(await readFile(target, 'utf8')) as Handoff);
    } catch {
      // Unreadable: leave it taken but unconfirmed, so the host answers deferred.
      claimed.pop();
    }
  }
  return {
    handoffs,
    async confirm() {
      for (const file of claimed) await unlink(file).catch(() => {});
    },
  };
}

/** Where a reader parks a handoff it took but has not confirmed yet. */
export function takenHandoffPath(file: string): string {
  return path.join(path.dirname(file), `.taken-${path.basename(file)}`);
}
