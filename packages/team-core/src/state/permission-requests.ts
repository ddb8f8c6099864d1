import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import { TeamkitError } from '../errors/index.js';
import type { PermissionRequest, RuntimeState } from '../schema/runtime-state.js';
import { parseInput } from './parse-input.js';
import { findMember, findParticipant } from './run-members.js';
import { updateRunState } from './run-state-store.js';
import { PermissionDecisionSchema, PermissionRequestInputSchema } from './state-inputs.js';
import { resolveStateOptions, type StateOptions } from './state-options.js';

/** What a member asks permission for. */
export interface PermissionRequestInput {
  /** The member asking. */
  member: string;
  /** What it wants to do, e.g. `write`, `bash`. */
  action: string;
  /** The absolute path it wants to act on, if any. */
  path?: string;
  /** Why, in the member's words. */
  reason?: string;
}

/** How the lead answers a permission request. */
export interface PermissionDecision {
  /** `approved` or `denied`. */
  decision: 'approved' | 'denied';
  /** Who decides; must be the run's lead or the user (`PERMISSION_DENIED` otherwise). */
  decidedBy: string;
  /** Why. */
  reason?: string;
  /** On approval of a request with a path, also allow that path for the member from now on. */
  remember?: boolean;
}

/** Options for permission functions: the state options plus an id source. */
export interface PermissionOptions extends StateOptions {
  /** Makes request ids; defaults to random UUIDs. */
  newId?: () => string;
}

function checkAbsolute(candidate: string | undefined): string | undefined {
  if (candidate === undefined) return undefined;
  if (!path.isAbsolute(candidate) || candidate.includes('\0')) {
    throw new TeamkitError(
      'INVALID_INPUT',
      `Permission paths are absolute paths; got ${JSON.stringify(candidate)}.`,
      { details: { path: candidate } },
    );
  }
  return path.resolve(candidate);
}

/**
 * Records a pending permission request from a member (for hosts that ask before a member
 * acts outside its worktree) and returns it; the lead answers with {@link decidePermission}.
 */
export async function requestPermission(
  home: string,
  runId: string,
  input: PermissionRequestInput,
  options: PermissionOptions,
): Promise<PermissionRequest> {
  const { now } = resolveStateOptions(options);
  parseInput(PermissionRequestInputSchema, input, 'the permission request');
  const request: PermissionRequest = {
    id: (options.newId ?? randomUUID)(),
    member: input.member,
    action: input.action,
    path: checkAbsolute(input.path),
    requestedAt: now(),
    status: 'pending',
    reason: input.reason,
  };
  await updateRunState(
    home,
    runId,
    (draft) => {
      findMember(draft, input.member);
      draft.permissionRequests.push(request);
      return draft;
    },
    options,
  );
  return request;
}

/**
 * Approves or denies a pending request. Only the lead or the user decides
 * (`PERMISSION_DENIED`); a request is decided once (`INVALID_TRANSITION`); an unknown id
 * is `UNKNOWN_REQUEST`. With `remember`, an approved path joins the member's allowlist.
 */
export async function decidePermission(
  home: string,
  runId: string,
  requestId: string,
  decision: PermissionDecision,
  options: StateOptions,
): Promise<PermissionRequest> {
  const { now } = resolveStateOptions(options);
  parseInput(z.string(), requestId, 'the request id');
  parseInput(PermissionDecisionSchema, decision, 'the decision');
  let decided: PermissionRequest | undefined;
  await updateRunState(
    home,
    runId,
    (draft) => {
      const decider = findParticipant(draft, decision.decidedBy);
      if (!decider.isLead) {
        throw new TeamkitError(
          'PERMISSION_DENIED',
          `Only the lead and the user decide permission requests; ${decision.decidedBy} is not the lead.`,
          { details: { runId, decidedBy: decision.decidedBy } },
        );
      }
      const request = draft.permissionRequests.find((candidate) => candidate.id === requestId);
      if (request === undefined) {
        throw new TeamkitError(
          'UNKNOWN_REQUEST',
          `Run ${runId} has no permission request ${requestId}; list them with \`team permission list\`.`,
          { details: { runId, requestId } },
        );
      }
      if (request.status !== 'pending') {
        throw new TeamkitError(
          'INVALID_TRANSITION',
          `Permission request ${requestId} was already ${request.status}.`,
          { details: { runId, requestId, status: request.status } },
        );
      }
      request.status = decision.decision;
      request.decidedAt = now();
      request.decidedBy = decision.decidedBy;
      if (decision.reason !== undefined) request.reason = decision.reason;
      if (decision.decision === 'approved' && decision.remember === true && request.path) {
        const list = draft.pathAllowlists[request.member] ?? [];
        if (!list.includes(request.path)) list.push(request.path);
        draft.pathAllowlists[request.member] = list;
      }
      decided = { ...request };
      return draft;
    },
    options,
  );
  return decided as PermissionRequest;
}

function isInside(base: string, candidate: string): boolean {
  const relative = path.relative(base, candidate);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/**
 * True when `member` may act on `target` without asking: it lies inside the member's
 * worktree or inside a path on its allowlist. The check is lexical on resolved paths.
 */
export function isPathAllowed(state: RuntimeState, member: string, target: string): boolean {
  parseInput(z.string(), target, 'the path');
  if (!path.isAbsolute(target)) return false;
  const resolved = path.resolve(target);
  const found = findMember(state, member);
  const bases = [
    ...(found.worktreePath === undefined ? [] : [found.worktreePath]),
    ...(state.pathAllowlists[member] ?? []),
  ];
  return bases.some((base) => isInside(path.resolve(base), resolved));
}
