import { setTimeout as delay } from 'node:timers/promises';
import { isSameFolder } from '@teamkit/team-core';
import {
  checkRecordedProcess,
  type ProcessExpectation,
  parseProcessSessionId,
  type SignalOutcome,
  signalRecordedProcess,
} from '@teamkit/team-core/processes';

/** What the host finds when it looks at a session before signalling it. */
export interface SessionCheck {
  sessionId: string;
  /** `ours`: its verified process runs; `gone`: nothing runs; `not-ours`: never signalled. */
  verdict: 'ours' | 'gone' | 'not-ours';
  pid?: number;
  reason?: string;
}

/**
 * What marks a process as a member this host started for `home`: its start environment
 * holds a member name and this home (`/proc/<pid>/environ`, which it cannot rewrite).
 */
export function memberProcessExpectation(home: string): ProcessExpectation {
  return {
    environment: {
      TEAMKIT_HOME: (value) => isSameFolder(value, home),
      TEAMKIT_MEMBER: (value) => value !== '',
    },
  };
}

/** Checks a session id against the process it names, without signalling anything. */
export function inspectProcessSession(
  sessionId: string,
  expectation: ProcessExpectation,
): SessionCheck {
  const session = parseProcessSessionId(sessionId);
  if (session === undefined) {
    return {
      sessionId,
      verdict: 'not-ours',
      reason: `session ${JSON.stringify(sessionId)} names no process this host started (expected proc-<pid above 1>-<start ms>)`,
    };
  }
  const check = checkRecordedProcess(session, expectation);
  return check.verdict === 'ours'
    ? { sessionId, verdict: 'ours', pid: session.pid }
    : { sessionId, verdict: check.verdict, pid: session.pid, reason: check.reason };
}

/** Signals a session's process (and the group it leads) once it is verified; else refuses. */
export function signalProcessSession(
  sessionId: string,
  signal: NodeJS.Signals,
  expectation: ProcessExpectation,
): SignalOutcome | undefined {
  const session = parseProcessSessionId(sessionId);
  if (session === undefined) return undefined;
  return signalRecordedProcess(session, signal, { ...expectation, group: true });
}

/**
 * Ends a session's process: SIGTERM, then SIGKILL after `graceMs`, each sent only after
 * the process is verified again as the member's. A session whose record fails the check
 * is left alone (its process is not running under that record); callers that must
 * report it use {@link inspectProcessSession} first.
 */
export async function stopProcessSession(
  sessionId: string,
  expectation: ProcessExpectation,
  graceMs: number,
): Promise<void> {
  const session = parseProcessSessionId(sessionId);
  if (session === undefined) return;
  const ours = () => checkRecordedProcess(session, expectation).verdict === 'ours';
  if (signalProcessSession(sessionId, 'SIGTERM', expectation)?.outcome !== 'signalled') return;
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    if (!ours()) return;
    await delay(50);
  }
  signalProcessSession(sessionId, 'SIGKILL', expectation);
  for (let tries = 0; tries < 40 && ours(); tries += 1) await delay(25);
}
