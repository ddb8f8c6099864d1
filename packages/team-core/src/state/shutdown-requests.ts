import { randomUUID } from 'node:crypto';
import { TeamkitError } from '../errors/index.js';
import type { RuntimeState, ShutdownRequest } from '../schema/runtime-state.js';
import { parseInput } from './parse-input.js';
import { findMember, findParticipant } from './run-members.js';
import { updateRunState } from './run-state-store.js';
import {
  MemberArgument,
  ShutdownAnswerSchema,
  ShutdownRequestInputSchema,
} from './state-inputs.js';
import { resolveStateOptions, type StateOptions } from './state-options.js';

/** The member's shutdown request that is not answered yet, if any. */
export function openShutdownRequest(
  state: RuntimeState,
  member: string,
): ShutdownRequest | undefined {
  return state.shutdownRequests.find(
    (request) =>
      request.member === member &&
      request.approvedAt === undefined &&
      request.rejectedAt === undefined,
  );
}

/** Options of {@link requestShutdown}: the state options plus an id source. */
export interface ShutdownRequestOptions extends StateOptions {
  /** Makes request ids; defaults to random UUIDs. */
  newId?: () => string;
}

/**
 * Records that `requester` (a member or the user) asks `member` to shut down. A member
 * has at most one open request; asking again returns the open one. Resolves to the state
 * and the open request, whose `id` the request's message carries.
 */
export async function requestShutdown(
  home: string,
  runId: string,
  input: { member: string; requester: string; reason?: string },
  options: ShutdownRequestOptions,
): Promise<RuntimeState> {
  const { now } = resolveStateOptions(options);
  parseInput(ShutdownRequestInputSchema, input, 'the shutdown request');
  const id = (options.newId ?? randomUUID)();
  return updateRunState(
    home,
    runId,
    (draft) => {
      findMember(draft, input.member);
      findParticipant(draft, input.requester);
      if (openShutdownRequest(draft, input.member) !== undefined) return draft;
      draft.shutdownRequests.push({
        id,
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
  options: StateOptions,
): Promise<RuntimeState> {
  const { now } = resolveStateOptions(options);
  parseInput(MemberArgument, member, 'the member name');
  parseInput(ShutdownAnswerSchema, answer, 'the answer');
  return updateRunState(
    home,
    runId,
    (draft) => {
      const target = findMember(draft, member);
      const request = openShutdownRequest(draft, member);
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
