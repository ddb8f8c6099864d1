import { spawn } from 'node:child_process';
import { closeSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isSameFolder } from '@teamkit/team-core';
import {
  checkRecordedProcess,
  type ProcessCheck,
  type ProcessExpectation,
  readProcessFacts,
  type SignalOutcome,
  signalRecordedProcess,
} from '@teamkit/team-core/processes';
import {
  createFileStore,
  openPrivateAppend,
  putDocument,
  readDocument,
  runKeys,
} from '@teamkit/team-core/storage';
import { z } from 'zod';

/** The variable that marks a process as the background supervisor of one run. */
export const SUPERVISOR_VARIABLE = 'TEAMKIT_SUPERVISOR';

/** What `runtime/<run>/supervisor.json` records. */
const SupervisorRecordSchema = z.object({
  version: z.literal(1),
  pid: z.number().int(),
  startedAt: z.number(),
});
type SupervisorRecord = z.infer<typeof SupervisorRecordSchema>;

/** What stopping the supervisor did: nothing recorded, or the outcome of the verified signal. */
export type SupervisorStopOutcome = { outcome: 'none' } | SignalOutcome;

const recordKey = (runId: string) => `${runKeys(runId).root}/supervisor.json`;

function supervisorExpectation(home: string, runId: string): ProcessExpectation {
  return {
    environment: {
      [SUPERVISOR_VARIABLE]: runId,
      TEAMKIT_HOME: (value) => isSameFolder(value, home),
    },
  };
}

/** Reads the record; anything but a readable `{ version, pid, startedAt }` document is none. */
async function readRecord(home: string, runId: string): Promise<SupervisorRecord | undefined> {
  try {
    return (
      await readDocument(createFileStore({ root: home }), recordKey(runId), SupervisorRecordSchema)
    )?.value;
  } catch {
    // A corrupt record, a FIFO or a planted link: no supervisor is known, none is signalled.
    return undefined;
  }
}

/** The recorded supervisor checked against the system: verdict, and the record when there is one. */
export async function inspectBackgroundSupervisor(
  home: string,
  runId: string,
): Promise<{ record?: SupervisorRecord; check?: ProcessCheck }> {
  const record = await readRecord(home, runId);
  if (record === undefined) return {};
  return { record, check: checkRecordedProcess(record, supervisorExpectation(home, runId)) };
}

/** The pid of the run's background supervisor when it is alive and verified as one. */
export async function backgroundSupervisorPid(
  home: string,
  runId: string,
): Promise<number | undefined> {
  const { record, check } = await inspectBackgroundSupervisor(home, runId);
  return check?.verdict === 'ours' ? record?.pid : undefined;
}

/**
 * Starts `team run supervise <run>` detached, logging to `runtime/<run>/logs/supervisor.log`,
 * unless one is already alive. Returns its pid. Its start environment names the run
 * (`TEAMKIT_SUPERVISOR`) and carries no member's identity, so a later stop can tell it
 * from any other process that got its pid.
 */
export async function startBackgroundSupervisor(
  home: string,
  runId: string,
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const existing = await backgroundSupervisorPid(home, runId);
  if (existing !== undefined) return existing;
  const bin = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'bin.js');
  const log = openPrivateAppend(home, `${runKeys(runId).root}/logs/supervisor.log`).fd;
  const spawnedAt = Date.now();
  const child = spawn(process.execPath, [bin, 'run', 'supervise', runId, '--home', home], {
    detached: true,
    stdio: ['ignore', log, log],
    env: {
      ...env,
      TEAMKIT_HOME: home,
      TEAMKIT_MEMBER: '',
      TEAMKIT_RUN: '',
      TEAMKIT_TOKEN: '',
      [SUPERVISOR_VARIABLE]: runId,
    },
  });
  closeSync(log);
  child.unref();
  const pid = child.pid ?? 0;
  const startedAt = readProcessFacts(pid)?.startedAt ?? spawnedAt;
  await putDocument(createFileStore({ root: home }), recordKey(runId), SupervisorRecordSchema, {
    version: 1,
    pid,
    startedAt,
  });
  return pid;
}

/**
 * Stops the run's background supervisor with SIGTERM, but only a process verified as it
 * (pid above 1, recorded start time, its start environment naming this run). A record
 * that fails the check is returned as `refused` for the caller to report, never signalled.
 */
export async function stopBackgroundSupervisor(
  home: string,
  runId: string,
): Promise<SupervisorStopOutcome> {
  const record = await readRecord(home, runId);
  if (record === undefined) return { outcome: 'none' };
  return signalRecordedProcess(record, 'SIGTERM', supervisorExpectation(home, runId));
}
