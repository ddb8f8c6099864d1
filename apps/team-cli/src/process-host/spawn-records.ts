import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { isSameFolder } from '@teamkit/team-core';
import {
  parseProcessSessionId,
  readProcessEnvironment,
  readProcessFacts,
} from '@teamkit/team-core/processes';
import { MemberNameSchema } from '@teamkit/team-core/schema';
import {
  createDocument,
  createFileStore,
  readDocument,
  runKeys,
  type TeamkitStore,
} from '@teamkit/team-core/storage';
import { z } from 'zod';

/** The variable that carries a member process's spawn nonce (inherited by everything it starts). */
export const SPAWN_NONCE_VARIABLE = 'TEAMKIT_SPAWN';

/**
 * One spawn of a member, recorded before its process starts: a process killed between the
 * spawn and the run's record of its session still carries the nonce in its environment
 * (and so does everything it started), so `team run stop` and resume can find and stop it.
 */
export const SpawnRecordSchema = z.strictObject({
  version: z.literal(1),
  member: MemberNameSchema,
  nonce: z.uuid(),
  at: z.number().int().nonnegative(),
});

/** One recorded spawn. */
export type SpawnRecord = z.infer<typeof SpawnRecordSchema>;

const spawnsFolder = (runId: string) => `${runKeys(runId).root}/spawns`;

/** Records a spawn of `member` before it happens; returns the nonce to put in its environment. */
export async function recordSpawn(
  home: string,
  runId: string,
  member: string,
  store: TeamkitStore = createFileStore({ root: home }),
): Promise<string> {
  const nonce = randomUUID();
  await createDocument(store, `${spawnsFolder(runId)}/${nonce}.json`, SpawnRecordSchema, {
    version: 1,
    member,
    nonce,
    at: Date.now(),
  });
  return nonce;
}

/** Every spawn recorded for a run; records that do not parse are skipped. */
export async function listSpawns(
  home: string,
  runId: string,
  store: TeamkitStore = createFileStore({ root: home }),
): Promise<SpawnRecord[]> {
  const names = await store.list(spawnsFolder(runId)).catch(() => [] as string[]);
  const records: SpawnRecord[] = [];
  for (const name of names) {
    const base = name.split('/').at(-1) ?? '';
    if (!/^[0-9a-f-]{36}\.json$/.test(base)) continue;
    try {
      const record = await readDocument(store, `${spawnsFolder(runId)}/${base}`, SpawnRecordSchema);
      if (record !== undefined) records.push(record.value);
    } catch {
      // A record someone corrupted names nothing we could verify; it is ignored.
    }
  }
  return records;
}

/** A process found carrying one of a run's spawn nonces. */
export interface SpawnedProcess {
  pid: number;
  member: string;
  nonce: string;
}

function listPids(): number[] {
  try {
    return readdirSync('/proc')
      .filter((name) => /^[1-9][0-9]*$/.test(name))
      .map(Number);
  } catch {
    return [];
  }
}

/**
 * The live processes started with one of `records`' nonces under this home (read from
 * `/proc/<pid>/environ`, which a process cannot rewrite), zombies excluded. Linux only:
 * elsewhere nothing is found.
 */
export function findSpawnedProcesses(
  home: string,
  records: readonly SpawnRecord[],
): SpawnedProcess[] {
  if (records.length === 0) return [];
  const byNonce = new Map(records.map((record) => [record.nonce, record]));
  const found: SpawnedProcess[] = [];
  for (const pid of listPids()) {
    if (pid === process.pid) continue;
    const env = readProcessEnvironment(pid);
    const nonce = env?.get(SPAWN_NONCE_VARIABLE);
    if (nonce === undefined) continue;
    const record = byNonce.get(nonce);
    if (record === undefined) continue;
    const envHome = env?.get('TEAMKIT_HOME');
    if (envHome === undefined || !isSameFolder(envHome, home)) continue;
    if (readProcessFacts(pid)?.state === 'Z') continue;
    found.push({ pid, member: record.member, nonce });
  }
  return found;
}

/** The spawn nonce of a recorded session's process, when it still runs. */
export function sessionNonce(sessionId: string): string | undefined {
  const session = parseProcessSessionId(sessionId);
  if (session === undefined) return undefined;
  return readProcessEnvironment(session.pid)?.get(SPAWN_NONCE_VARIABLE);
}

/**
 * Stops every process of the run's recorded spawns except those of `keep` (the nonces of
 * sessions the run still records as live): SIGTERM, then SIGKILL after `graceMs`.
 * Returns what it found. Used by `team run stop` (keeping nothing) and on resume and
 * supervisor start (keeping the recorded sessions), so a member process started by a
 * `team run start` killed before it recorded the session never runs beside its restart.
 */
export async function stopStraySpawns(
  home: string,
  runId: string,
  options: { keep?: ReadonlySet<string>; graceMs?: number; store?: TeamkitStore } = {},
): Promise<SpawnedProcess[]> {
  const records = await listSpawns(home, runId, options.store);
  const keep = options.keep ?? new Set<string>();
  const strays = () =>
    findSpawnedProcesses(home, records).filter((found) => !keep.has(found.nonce));
  const found = strays();
  if (found.length === 0) return [];
  for (const stray of found) signal(stray.pid, 'SIGTERM');
  const deadline = Date.now() + (options.graceMs ?? 2_000);
  while (Date.now() < deadline && strays().length > 0) await delay(50);
  for (const stray of strays()) signal(stray.pid, 'SIGKILL');
  for (let tries = 0; tries < 40 && strays().length > 0; tries += 1) await delay(25);
  return found;
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Gone already.
  }
}

/**
 * The spawn nonces of the sessions a run records (read from each live session's start
 * environment): the processes {@link stopStraySpawns} must keep.
 */
export function recordedSessionNonces(state: {
  members: readonly { sessionId?: string | undefined }[];
}): Set<string> {
  const nonces = new Set<string>();
  for (const member of state.members) {
    if (member.sessionId === undefined) continue;
    const nonce = sessionNonce(member.sessionId);
    if (nonce !== undefined) nonces.add(nonce);
  }
  return nonces;
}
