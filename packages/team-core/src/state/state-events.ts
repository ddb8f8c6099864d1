import type { MemberStatus, RuntimeState } from '../schema/runtime-state.js';
import type { RunKeys } from '../storage/run-keys.js';
import type { TeamkitStore } from '../storage/teamkit-store.js';
import { appendStateEvent } from './state-storage.js';

/**
 * Logs the run and member status changes between two states to the event log. The state
 * file is the source of truth; a failed append must not undo a write that already
 * happened, so it is not reported as a failure of the change.
 */
export async function recordStatusEvents(
  store: TeamkitStore,
  keys: RunKeys,
  before: RuntimeState,
  after: RuntimeState,
  actor: string,
  at: number,
): Promise<void> {
  const events: { type: string; ids?: string[]; data: Record<string, unknown> }[] = [];
  if (before.status !== after.status) {
    events.push({
      type: 'run.status',
      data: { from: before.status, to: after.status, reason: after.statusReason },
    });
  }
  const oldStatus = new Map<string, MemberStatus>(before.members.map((m) => [m.name, m.status]));
  for (const member of after.members) {
    const from = oldStatus.get(member.name);
    if (from !== member.status) {
      events.push({
        type: 'member.status',
        ids: [member.name],
        data: { from: from ?? null, to: member.status, reason: member.statusReason },
      });
    }
  }
  for (const event of events) {
    await appendStateEvent(store, keys, { actor, at, ...event }).catch(() => {});
  }
}
