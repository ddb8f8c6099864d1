import type { RuntimeState } from '@teamkit/team-core';

/** One run as `team run list` and `team run status` print it in JSON. */
export function runLine(state: RuntimeState): Record<string, unknown> {
  return {
    runId: state.runId,
    team: state.teamName,
    status: state.status,
    createdAt: state.createdAt,
    members: state.members.length,
    host: state.hostId,
  };
}
