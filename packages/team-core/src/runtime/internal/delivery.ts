import { errorMessage, isTeamkitError, TeamkitError } from '../../errors/index.js';
import { assertCanTakeTurn, readRunState, recordTurn, updateRunState } from '../../state/index.js';
import { renderMessages } from '../render-messages.js';

import type { RuntimeContext } from './runtime-context.js';

/** What {@link TeamRuntime.deliverPending} did for one member. */
export interface DeliveryReport {
  member: string;
  delivered: string[];
  deferred: string[];
  /** Why nothing (more) was delivered: no mail, no session, busy, a bound, or a host failure. */
  stoppedBecause?: string;
}

/** Hands members their unread mail through the host. */
export interface Delivery {
  /** Delivers a member's unread mail; at most one delivery runs per member at a time. */
  deliverPending(runId: string, member: string): Promise<DeliveryReport>;
}

// A member that keeps getting mail while it is being delivered to is served in rounds;
// this many rounds in one call is far past any real burst.
const MAX_ROUNDS = 100;

/**
 * Creates the delivery part of a runtime: reserve → `host.deliver` → commit (`delivered`)
 * or release (`deferred`, failure). Each delivery is one turn of the member, checked
 * against the bounds before anything is handed over and counted once the host confirmed it.
 */
export function createDelivery(ctx: RuntimeContext): Delivery {
  const inFlight = new Map<string, { again: boolean; done: Promise<DeliveryReport> }>();

  async function setPending(
    runId: string,
    member: string,
    change: (ids: string[]) => string[],
  ): Promise<void> {
    await updateRunState(
      ctx.home,
      runId,
      (draft) => {
        const target = draft.members.find((candidate) => candidate.name === member);
        if (target !== undefined) target.pendingDeliveryIds = change(target.pendingDeliveryIds);
        return draft;
      },
      ctx.stateOptions,
    );
  }

  async function deliverOnce(runId: string, memberName: string): Promise<DeliveryReport> {
    const report: DeliveryReport = { member: memberName, delivered: [], deferred: [] };
    const mailbox = ctx.mailbox(runId);
    for (let round = 0; round < MAX_ROUNDS; round += 1) {
      const state = await readRunState(ctx.home, runId, ctx.stateOptions);
      const member = state.members.find((candidate) => candidate.name === memberName);
      if (member === undefined)
        throw new TeamkitError('UNKNOWN_MEMBER', `Run ${runId} has no member ${memberName}.`);
      if (member.sessionId === undefined || !['running', 'idle'].includes(member.status)) {
        report.stoppedBecause = 'no live session';
        return report;
      }
      const unread = (await mailbox.listUnread(memberName)).messages;
      if (unread.length === 0) {
        report.stoppedBecause ??= 'no mail';
        return report;
      }
      if (member.status === 'idle' && !member.isLead) {
        try {
          if (!(await ctx.moveIfStill(runId, memberName, 'idle', 'running'))) continue;
        } catch (error) {
          if (!isTeamkitError(error, 'BOUND_EXCEEDED')) throw error;
          report.stoppedBecause = 'parallel bound reached; delivered when another member is idle';
          return report;
        }
      }
      const { reserved } = await mailbox.reserve(
        memberName,
        unread.map((message) => message.messageId),
      );
      if (reserved.length === 0) continue;
      const ids = reserved.map((message) => message.messageId);
      try {
        assertCanTakeTurn(state, memberName, ctx.now());
      } catch (error) {
        await mailbox.release(memberName, ids);
        if (!isTeamkitError(error, 'BOUND_EXCEEDED') && !isTeamkitError(error, 'RUN_NOT_ACTIVE')) {
          throw error;
        }
        report.stoppedBecause = error.message;
        return report;
      }
      await setPending(runId, memberName, (pending) => [...new Set([...pending, ...ids])]);
      let outcome: 'delivered' | 'deferred' | 'failed';
      try {
        outcome = await ctx.host.deliver({
          runId,
          member: memberName,
          sessionId: member.sessionId,
          messages: reserved,
          text: renderMessages(reserved),
        });
      } catch (error) {
        outcome = 'failed';
        report.stoppedBecause = `host failed to deliver: ${errorMessage(error)}`;
      }
      if (outcome === 'delivered') await mailbox.commit(memberName, ids);
      else await mailbox.release(memberName, ids);
      await setPending(runId, memberName, (pending) => pending.filter((id) => !ids.includes(id)));
      await ctx.event(runId, `delivery.${outcome}`, ids, {
        member: memberName,
        ...(outcome === 'failed' ? { reason: report.stoppedBecause } : {}),
      });
      if (outcome !== 'delivered') {
        report.deferred.push(...ids);
        report.stoppedBecause ??= 'session busy';
        return report;
      }
      report.delivered.push(...ids);
      await recordTurn(ctx.home, runId, memberName, ctx.stateOptions);
    }
    report.stoppedBecause = 'delivery round limit';
    return report;
  }

  function deliverPending(runId: string, member: string): Promise<DeliveryReport> {
    const key = `${runId}/${member}`;
    const current = inFlight.get(key);
    if (current !== undefined) {
      // The running delivery checks again when it is done, so no wake-up is lost.
      current.again = true;
      return current.done;
    }
    const entry: { again: boolean; done: Promise<DeliveryReport> } = {
      again: false,
      done: Promise.resolve({ member, delivered: [], deferred: [] }),
    };
    entry.done = (async () => {
      const merged: DeliveryReport = { member, delivered: [], deferred: [] };
      try {
        do {
          entry.again = false;
          const round = await deliverOnce(runId, member);
          merged.delivered.push(...round.delivered);
          merged.deferred.push(...round.deferred);
          merged.stoppedBecause = round.stoppedBecause;
        } while (entry.again);
        return merged;
      } finally {
        inFlight.delete(key);
      }
    })();
    inFlight.set(key, entry);
    return entry.done;
  }

  return { deliverPending };
}
