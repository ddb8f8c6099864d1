/** A member process as a host that runs members as processes names it: `proc-<pid>-<startedAtMs>`. */
export interface ProcessSession {
  pid: number;
  /** When the process started, in ms since the epoch (see `ProcessFacts.startedAt`). */
  startedAt: number;
}

/** The session id of process `pid`, started at `startedAt`. */
export function processSessionId(pid: number, startedAt: number): string {
  return `proc-${pid}-${startedAt}`;
}

/**
 * Reads a process session id back; `undefined` for anything else (another host's
 * session, or a malformed id such as `proc-0-…` or `proc--1-…`, which names no process
 * Teamkit may signal).
 */
export function parseProcessSessionId(sessionId: string): ProcessSession | undefined {
  const match = /^proc-([1-9][0-9]{0,9})-([0-9]{1,16})$/.exec(sessionId);
  if (match === null) return undefined;
  const session = { pid: Number(match[1]), startedAt: Number(match[2]) };
  return Number.isSafeInteger(session.pid) && Number.isSafeInteger(session.startedAt)
    ? session
    : undefined;
}
