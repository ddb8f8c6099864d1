import {
  type ProcessFacts,
  processFactsSource,
  readProcessEnvironment,
  readProcessFacts,
} from './process-facts.js';

/** A process Teamkit started and wrote down: its pid and when it started. */
export interface RecordedProcess {
  pid: number;
  /** Start time in ms since the epoch, as {@link readProcessFacts} reported it at spawn. */
  startedAt: number;
}

/** A variable the process must have been started with: an exact value, or a test of it. */
export type ExpectedVariable = string | ((value: string) => boolean);

/** What else marks the process as Teamkit's, beyond its pid and start time. */
export interface ProcessExpectation {
  /**
   * Variables the process was started with (read from `/proc/<pid>/environ`, which the
   * process cannot rewrite). Checked where the system shows them (Linux).
   */
  environment?: Readonly<Record<string, ExpectedVariable>>;
  /** How far the recorded start may be from the system's; default 5000 ms. */
  startToleranceMs?: number;
}

/**
 * The verdict on a recorded process: `ours` (alive and verified), `gone` (no such
 * process, or it exited), or `not-ours` (the record names a process Teamkit may not
 * signal: a pid of 1 or less, a reused pid, a process without Teamkit's marks).
 */
export type ProcessCheck =
  | { verdict: 'ours'; facts: ProcessFacts; leadsGroup: boolean }
  | { verdict: 'gone'; reason: string }
  | { verdict: 'not-ours'; reason: string };

/** The default of {@link ProcessExpectation.startToleranceMs}. */
export const START_TOLERANCE_MS = 5_000;

/** True for a pid that may name one process Teamkit started: a whole number above 1. */
export function isSignallablePid(pid: number): boolean {
  // kill(0) reaches the caller's group, kill(-1) every process it may signal, and pid 1 is init.
  return Number.isSafeInteger(pid) && pid > 1;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Checks, at this moment, that a recorded process is still the one Teamkit started:
 * a pid above 1 that is not this process, alive and not a zombie, started when the
 * record says (so a reused pid is not mistaken for it), and carrying the expected
 * variables. Only a process that passes may be signalled.
 */
export function checkRecordedProcess(
  record: RecordedProcess,
  expectation: ProcessExpectation = {},
): ProcessCheck {
  const { pid } = record;
  if (!isSignallablePid(pid)) {
    return {
      verdict: 'not-ours',
      reason: `pid ${String(pid)} names no single process Teamkit may signal (a pid must be a whole number above 1)`,
    };
  }
  if (pid === process.pid) {
    return { verdict: 'not-ours', reason: `pid ${pid} is this command's own process` };
  }
  const facts = readProcessFacts(pid);
  if (facts === undefined) return { verdict: 'gone', reason: `no process ${pid} is running` };
  if (facts.state === 'Z') return { verdict: 'gone', reason: `process ${pid} has exited` };
  const tolerance = expectation.startToleranceMs ?? START_TOLERANCE_MS;
  if (
    !Number.isFinite(record.startedAt) ||
    Math.abs(facts.startedAt - record.startedAt) > tolerance
  ) {
    return {
      verdict: 'not-ours',
      reason: `pid ${pid} now belongs to another process (started ${iso(facts.startedAt)}; the recorded one started ${Number.isFinite(record.startedAt) ? iso(record.startedAt) : 'at an unknown time'})`,
    };
  }
  const expected = Object.entries(expectation.environment ?? {});
  if (expected.length > 0 && processFactsSource() === 'proc') {
    const environment = readProcessEnvironment(pid);
    if (environment === undefined) {
      return {
        verdict: 'not-ours',
        reason: `the environment of process ${pid} cannot be read, so it cannot be shown to be Teamkit's`,
      };
    }
    for (const [name, want] of expected) {
      const value = environment.get(name);
      const matches =
        value !== undefined && (typeof want === 'string' ? value === want : want(value));
      if (!matches) {
        return {
          verdict: 'not-ours',
          reason: `process ${pid} was not started by Teamkit for this record (its ${name} is ${value === undefined ? 'not set' : JSON.stringify(value)})`,
        };
      }
    }
  }
  return { verdict: 'ours', facts, leadsGroup: facts.processGroup === pid };
}
