import { readFileSync } from 'node:fs';

/** A member process as the host names it: `proc-<pid>-<startedAtMs>`. */
export interface ProcessSession {
  pid: number;
  startedAt: number;
}

/** The session id of a process started at `startedAt`. */
export function processSessionId(pid: number, startedAt: number): string {
  return `proc-${pid}-${startedAt}`;
}

/** Reads a session id back; `undefined` for ids this host did not make. */
export function parseProcessSessionId(sessionId: string): ProcessSession | undefined {
  const match = /^proc-([1-9][0-9]*)-([0-9]+)$/.exec(sessionId);
  if (match === null) return undefined;
  return { pid: Number(match[1]), startedAt: Number(match[2]) };
}

// How far the kernel's start time may drift from the clock reading taken at spawn.
const START_TOLERANCE_MS = 5_000;

/**
 * Whether the process of a session is alive and is still the one that was started (the
 * pid was not reused): `kill(pid, 0)` and, on Linux, its start time from `/proc`.
 */
export function isProcessSessionAlive(session: ProcessSession): boolean {
  try {
    process.kill(session.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const started = linuxStartTime(session.pid);
  if (started === undefined) return !isZombie(session.pid);
  return Math.abs(started - session.startedAt) <= START_TOLERANCE_MS && !isZombie(session.pid);
}

function readStat(pid: number): string[] | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces and parentheses; fields start after the last ')'.
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

function isZombie(pid: number): boolean {
  return readStat(pid)?.[0] === 'Z';
}

let bootTimeMs: number | undefined;
function linuxStartTime(pid: number): number | undefined {
  const fields = readStat(pid);
  const ticks = fields?.[19];
  if (ticks === undefined) return undefined;
  if (bootTimeMs === undefined) {
    try {
      const btime = /^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'))?.[1];
      if (btime === undefined) return undefined;
      bootTimeMs = Number(btime) * 1000;
    } catch {
      return undefined;
    }
  }
  // USER_HZ is 100 on every Linux build Node supports.
  return bootTimeMs + Number(ticks) * 10;
}
