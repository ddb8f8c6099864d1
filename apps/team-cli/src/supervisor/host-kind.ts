import type { RuntimeState } from '@teamkit/team-core';
import { PROCESS_HOST_ID } from '../process-host/index.js';

/**
 * Refuses (`HOST_MISMATCH`) to supervise or resume a run another kind of host started
 * (an OpenCode session's team): its sessions are not processes this CLI can check, and
 * judging them would mark live members dead.
 */
export async function assertProcessHosted(state: RuntimeState, operation: string): Promise<void> {
  if (state.hostId === PROCESS_HOST_ID) return;
  const { TeamkitError } = await import('@teamkit/team-core');
  throw new TeamkitError(
    'HOST_MISMATCH',
    `Run ${state.runId} is hosted by ${state.hostId}, not by this CLI; ${operation} it from there.`,
    { details: { runId: state.runId, hostId: state.hostId, operation } },
  );
}
