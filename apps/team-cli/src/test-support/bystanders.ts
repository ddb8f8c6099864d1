import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** A process that is not Teamkit's, started by a test to check that nothing signals it. */
export interface Bystander {
  pid: number;
  /** Its start time as `/proc` reports it (ms since the epoch). */
  startedAt: number;
  /** Pids of the other processes in its process group (its children). */
  groupMembers: number[];
  alive(): boolean;
  stop(): void;
}

const running = new Set<ChildProcess>();

/** A process's start time as `/proc` reports it (ms since the epoch). */
export function startTime(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const btime = Number(/^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'))?.[1]);
  return btime * 1000 + Number(fields[19]) * 10;
}

function isAlive(pid: number): boolean {
  try {
    const state = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return state.slice(state.lastIndexOf(')') + 2, state.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/**
 * Starts a bystander: a Node process leading its own process group, with one child
 * (`sleep`) in the same group, so a signal to the group would reach both.
 */
export async function startBystander(): Promise<Bystander> {
  const child = spawn(
    process.execPath,
    [
      '-e',
      "const c = require('child_process').spawn('sleep', ['600'], { stdio: 'ignore' }); console.log(c.pid); setInterval(() => {}, 1e6);",
    ],
    { detached: true, stdio: ['ignore', 'pipe', 'ignore'] },
  );
  running.add(child);
  const childPid = await new Promise<number>((resolve, reject) => {
    child.stdout?.once('data', (data: Buffer) => resolve(Number(String(data).trim())));
    child.once('error', reject);
  });
  const pid = child.pid as number;
  return {
    pid,
    startedAt: startTime(pid),
    groupMembers: [childPid],
    alive: () => isAlive(pid) && isAlive(childPid),
    stop() {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
      running.delete(child);
    },
  };
}

/** Stops every bystander a test left running. */
export function stopAllBystanders(): void {
  for (const child of running) {
    if (child.pid !== undefined) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  }
  running.clear();
}
