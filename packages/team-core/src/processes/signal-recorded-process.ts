import {
  checkRecordedProcess,
  type ProcessExpectation,
  type RecordedProcess,
} from './check-recorded-process.js';

/** Options for {@link signalRecordedProcess}. */
export interface SignalOptions extends ProcessExpectation {
  /**
   * Signal the process group too. The group is signalled only when the verified process
   * still leads it (its group id is its own pid, the group its spawner created);
   * otherwise only the process itself.
   */
  group?: boolean;
}

/** What {@link signalRecordedProcess} did. */
export type SignalOutcome =
  | { outcome: 'signalled'; target: 'group' | 'process'; pid: number }
  | { outcome: 'gone'; pid: number; reason: string }
  | { outcome: 'refused'; pid: number; reason: string };

/**
 * Sends `signal` to a recorded process only after {@link checkRecordedProcess} verified
 * it as Teamkit's at this moment; a record that fails is refused (and reported by the
 * caller), never signalled. The group is reached only through its verified leader.
 */
export function signalRecordedProcess(
  record: RecordedProcess,
  signal: NodeJS.Signals,
  options: SignalOptions = {},
): SignalOutcome {
  const check = checkRecordedProcess(record, options);
  if (check.verdict === 'gone') return { outcome: 'gone', pid: record.pid, reason: check.reason };
  if (check.verdict === 'not-ours') {
    return { outcome: 'refused', pid: record.pid, reason: check.reason };
  }
  const target = options.group === true && check.leadsGroup ? 'group' : 'process';
  try {
    // The pid was checked above 1 and as the group's leader, so -pid is exactly its group.
    process.kill(target === 'group' ? -record.pid : record.pid, signal);
    return { outcome: 'signalled', target, pid: record.pid };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ESRCH') {
      return { outcome: 'gone', pid: record.pid, reason: `process ${record.pid} has exited` };
    }
    return {
      outcome: 'refused',
      pid: record.pid,
      reason: `the system refused to signal process ${record.pid} (${code ?? String(error)})`,
    };
  }
}
