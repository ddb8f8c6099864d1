import { readFileSync } from 'node:fs';

/** What the operating system says about one process, read at one moment. */
export interface ProcessFacts {
  pid: number;
  parentPid: number;
  /** The id of its process group (the pid of the group's leader). */
  processGroup: number;
  /** One-letter state (`R`, `S`, `D`, `T`, `Z` for an exited, unreaped process, …). */
  state: string;
  /**
   * When it started, in ms since the epoch. From `/proc` it is exact to 10 ms and the
   * same on every reading (boot time plus start ticks); from `ps` to the second.
   */
  startedAt: number;
}

/** Where {@link readProcessFacts} reads from: Linux's `/proc`, else `ps`. */
export type ProcessFactsSource = 'proc' | 'ps';

let bootTimeMs: number | undefined;

function readBootTimeMs(): number | undefined {
  if (bootTimeMs !== undefined) return bootTimeMs;
  try {
    const btime = /^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'))?.[1];
    if (btime !== undefined) bootTimeMs = Number(btime) * 1000;
  } catch {
    // No /proc: the caller falls back to ps.
  }
  return bootTimeMs;
}

/** Parses the text of `/proc/<pid>/stat`; exported for tests. */
export function parseProcStat(pid: number, text: string, bootMs: number): ProcessFacts | undefined {
  // The command name may hold spaces and parentheses; fields start after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const [state, parent, group] = fields;
  const ticks = Number(fields[19]);
  if (state === undefined || parent === undefined || group === undefined) return undefined;
  if (!Number.isFinite(ticks)) return undefined;
  return {
    pid,
    parentPid: Number(parent),
    processGroup: Number(group),
    state,
    // USER_HZ is 100 on every Linux build Node supports.
    startedAt: bootMs + ticks * 10,
  };
}

function readFromProc(pid: number): ProcessFacts | undefined | 'no-proc' {
  const bootMs = readBootTimeMs();
  if (bootMs === undefined) return 'no-proc';
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  return parseProcStat(pid, text, bootMs);
}

/** Parses one line of `ps -o ppid=,pgid=,stat=,lstart=` run with `TZ=UTC`; exported for tests. */
export function parsePsLine(pid: number, line: string): ProcessFacts | undefined {
  const match = /^\s*(\d+)\s+(\d+)\s+(\S+)\s+(.+?)\s*$/.exec(line);
  if (match === null) return undefined;
  const startedAt = Date.parse(`${match[4]} UTC`);
  if (Number.isNaN(startedAt)) return undefined;
  return {
    pid,
    parentPid: Number(match[1]),
    processGroup: Number(match[2]),
    state: (match[3] as string).slice(0, 1),
    startedAt,
  };
}

/** Reads a process through `ps` (systems without `/proc`); exported for tests. */
export function readFromPs(pid: number): ProcessFacts | undefined {
  try {
    // Taken when used: on Linux (`/proc`) a command asking "is this process a member?"
    // never loads child_process.
    const { execFileSync } = process.getBuiltinModule('node:child_process');
    const line = execFileSync('ps', ['-o', 'ppid=,pgid=,stat=,lstart=', '-p', String(pid)], {
      encoding: 'utf8',
      env: { ...process.env, LC_ALL: 'C', TZ: 'UTC' },
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 5_000,
    });
    return parsePsLine(pid, line.trim().split('\n')[0] ?? '');
  } catch {
    return undefined;
  }
}

/** Which source this system offers. */
export function processFactsSource(): ProcessFactsSource {
  return readBootTimeMs() === undefined ? 'ps' : 'proc';
}

/**
 * What the system says about process `pid` now, or `undefined` when there is no such
 * process (or it cannot be read). Linux reads `/proc/<pid>/stat`; elsewhere `ps`.
 */
export function readProcessFacts(pid: number): ProcessFacts | undefined {
  if (!Number.isSafeInteger(pid) || pid < 1) return undefined;
  const fromProc = readFromProc(pid);
  return fromProc === 'no-proc' ? readFromPs(pid) : fromProc;
}

/**
 * The environment process `pid` was started with (`/proc/<pid>/environ`), or `undefined`
 * when it cannot be read: another user's process, a process that is gone, or a system
 * without `/proc`. A process cannot change what this shows by editing its own variables.
 */
export function readProcessEnvironment(pid: number): Map<string, string> | undefined {
  if (!Number.isSafeInteger(pid) || pid < 1) return undefined;
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/environ`, 'utf8');
  } catch {
    return undefined;
  }
  const environment = new Map<string, string>();
  for (const entry of text.split('\0')) {
    const equals = entry.indexOf('=');
    if (equals > 0) environment.set(entry.slice(0, equals), entry.slice(equals + 1));
  }
  return environment;
}
