import type { RuntimeState, TeamHostV1 } from '@teamkit/team-core';
import { errorMessage } from '@teamkit/team-core/errors';

/**
 * Stops the processes this machine runs for a run that ended elsewhere: in a shared run,
 * `team run stop` on one machine stops only its own members (it never signals another
 * machine's processes), so each machine's supervisor, seeing the run stopped, stops the
 * members placed on it. Returns the members it stopped and those it could not.
 */
export async function stopMachineMembers(
  host: TeamHostV1,
  state: RuntimeState,
  machine: string,
): Promise<{ stopped: string[]; failed: { member: string; reason: string }[] }> {
  const stopped: string[] = [];
  const failed: { member: string; reason: string }[] = [];
  for (const member of state.members) {
    if (member.machine !== machine || member.sessionId === undefined) continue;
    try {
      if (await host.isAlive(member.sessionId)) {
        await host.stopMember?.(member.sessionId);
        stopped.push(member.name);
      }
    } catch (error) {
      failed.push({
        member: member.name,
        reason: errorMessage(error),
      });
    }
  }
  return { stopped, failed };
}
