import {
  checkRecordedProcess,
  type ProcessExpectation,
  type ProcessSession,
  parseProcessSessionId,
  processSessionId,
} from '@teamkit/team-core/processes';

export type { ProcessSession };
export { parseProcessSessionId, processSessionId };

/**
 * Whether the process of a session is alive and is still the one that was started: a pid
 * above 1, not a zombie, its start time as recorded (a reused pid is not mistaken for it)
 * and, where `expectation` names them, the variables it was started with.
 */
export function isProcessSessionAlive(
  session: ProcessSession,
  expectation: ProcessExpectation = {},
): boolean {
  return checkRecordedProcess(session, expectation).verdict === 'ours';
}
