import { TeamkitError } from '../errors/index.js';
import type { RuntimeState, ShutdownRequest } from '../schema/runtime-state.js';
import { parseInput } from './parse-input.js';
import { findMember } from './run-members.js';
import { updateRunState } from './run-state-store.js';
import {
  MemberArgument,
  ShutdownAnswerSchema,
  ShutdownRequestInputSchema,
} from './state-inputs.js';
import { resolveStateOptions, type StateOptions } from './state-options.js';

function openRequest(state: RuntimeState, member: string): ShutdownRequest | undefined {
  return state.shutdownRequests.find(
    (request) =>
      request.member === member &&
      request.approvedAt === undefined &&
      request.rejectedAt === undefined,
  );
}

/**
 * Records that `requester` asks `member` to shut down. A member has at most one open
 * request; asking again returns the open one.
 */
export async function requestShutdown(
  home: string,
  runId: string,
  input: { member: string; requester: string; reason?: string },
  options: StateOptions = {},
): Promise<RuntimeState> {
  const { now } = resolveStateOptions(home, options);
  parseInput(ShutdownRequestInputSchema, input, 'the shutdown request');
  return updateRunState(
    home,
    runId,
    (draft) => {
      findMember(draft, input.member);
      findMember(draft, input.requester);
      if (openRequest(draft, input.member) !== undefined) return draft;
      draft.shutdownRequests.push({
        member: input.member,
        requester: input.requester,
        requestedAt: now(),
        reason: input.reason,
      });
      return draft;
    },
    options,
  );
}

/**
 * Answers the open shutdown request of `member`. Approval moves the member to
 * `shutdown_approved` through its status machine; rejection leaves it working. No open
 * request is `INVALID_TRANSITION`.
 */
export async function answerShutdown(
  home: string,
  runId: string,
  member: string,
  answer: { approve: boolean; reason?: string },
  options: StateOptions = {},
): Promise<RuntimeState> {
  const { now } = resolveStateOptions(home, options);
  parseInput(MemberArgument, member, 'the member name');
  parseInput(ShutdownAnswerSchema, answer, 'the answer');
  return updateRunState(
    home,
    runId,
    (draft) => {
      const target = findMember(draft, member);
      const request = openRequest(draft, member);
      if (request === undefined) {
        throw new TeamkitError(
          'INVALID_TRANSITION',
          `Member ${member} has no open shutdown request to answer.`,
          { details: { runId, member } },
        );
      }
      if (answer.approve) {
        request.approvedAt = now();
        target.status = 'shutdown_approved';
      } else {
        request.rejectedAt = now();
      }
      if (answer.reason !== undefined) request.reason = answer.reason;
      return draft;
    },
    options,
  );
}
