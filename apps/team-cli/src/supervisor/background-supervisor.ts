import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function recordPath(home: string, runId: string): string {
  return path.join(home, 'runtime', runId, 'supervisor.json');
}

/** The pid of the run's background supervisor when it is alive. */
export async function backgroundSupervisorPid(
  home: string,
  runId: string,
): Promise<number | undefined> {
  try {
    const { pid } = JSON.parse(await readFile(recordPath(home, runId), 'utf8')) as { pid: number };
    process.kill(pid, 0);
    return pid;
  } catch {
    return undefined;
  }
}

/**
 * Starts `team run supervise <run>` detached, logging to `runtime/<run>/logs/supervisor.log`,
 * unless one is already alive. Returns its pid.
 */
export async function startBackgroundSupervisor(
  home: string,
  runId: string,
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const existing = await backgroundSupervisorPid(home, runId);
  if (existing !== undefined) return existing;
  const bin = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'bin.js');
  const logFile = path.join(home, 'runtime', runId, 'logs', 'supervisor.log');
  mkdirSync(path.dirname(logFile), { recursive: true });
  const log = openSync(logFile, 'a');
  const child = spawn(process.execPath, [bin, 'run', 'supervise', runId, '--home', home], {
    detached: true,
    stdio: ['ignore', log, log],
    env: { ...env, TEAMKIT_MEMBER: '', TEAMKIT_RUN: '' },
  });
  closeSync(log);
  child.unref();
  const pid = child.pid ?? 0;
  await writeFile(recordPath(home, runId), JSON.stringify({ pid, startedAt: Date.now() }));
  return pid;
}

/** Stops the run's background supervisor, if one is alive. */
export async function stopBackgroundSupervisor(home: string, runId: string): Promise<void> {
  const pid = await backgroundSupervisorPid(home, runId);
  if (pid === undefined || pid === process.pid) return;
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    // Already gone.
  }
}
