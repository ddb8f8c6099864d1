import type { ClaudeTeamLiveness } from './claude-team-view.js';
import type { ClaudeLeadProcess } from './parse-team-config.js';
import type { ProcessProbe } from './process-probe.js';

/**
 * Judges a team's lead the way Claude Code judges a lead claim: the pid must be in this
 * machine's pid space, the process must exist, and where the config recorded a start
 * time it must match (so a reused pid is not taken for the lead).
 */
export function judgeLeadProcess(
  lead: ClaudeLeadProcess | undefined,
  probe: ProcessProbe,
): ClaudeTeamLiveness {
  if (lead === undefined) {
    return {
      status: 'unknown',
      reason: 'config.json names no lead process (a Claude Code older than 2.1.178 wrote it)',
    };
  }
  const leadPid = lead.pid;
  if (lead.pidSpace !== probe.pidSpace()) {
    return {
      status: 'unknown',
      reason: `the lead runs in another pid space (${lead.pidSpace}), not this machine's`,
      leadPid,
    };
  }
  if (!probe.isRunning(leadPid)) {
    return { status: 'finished', reason: `lead process ${leadPid} is not running`, leadPid };
  }
  if (lead.procStart === undefined) {
    return {
      status: 'live',
      reason: `lead process ${leadPid} is running (no start time recorded to compare)`,
      leadPid,
    };
  }
  const started = probe.startTimeOf(leadPid);
  if (started === undefined) {
    return {
      status: 'live',
      reason: `lead process ${leadPid} is running (its start time cannot be read here)`,
      leadPid,
    };
  }
  if (started !== lead.procStart) {
    return {
      status: 'finished',
      reason: `pid ${leadPid} now belongs to another process (started at ${started}, the lead at ${lead.procStart})`,
      leadPid,
    };
  }
  return { status: 'live', reason: `lead process ${leadPid} is running`, leadPid };
}
