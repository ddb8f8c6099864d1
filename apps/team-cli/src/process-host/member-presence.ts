import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Message } from '@teamkit/team-core';

// The waiting marker itself (`markWaiting`, `readWaitingMarker`) is team-core's, so every
// process that waits for mail records its presence the same way; the handoffs a waiting
// `team inbox --wait` takes are this host's.

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

/** Where handoffs for a member are dropped. */
export function handoffFolder(home: string, runId: string, member: string): string {
  return path.join(runRoot(home, runId), 'handoff', safeName(member));
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
