import { TeamkitError } from '../errors/index.js';
import type { Mailbox } from '../mailbox/index.js';
import type { RuntimeState, ShutdownRequest } from '../schema/index.js';
import {
  answerShutdown,
  hasLeadRights,
  isActiveMember,
  openShutdownRequest,
  readRunState,
  requestShutdown,
  type StateOptions,
} from '../state/index.js';

/** One shutdown request a call made (or found open already). */
export interface ShutdownRequestRecord {
  member: string;
  /** The request's id; its message carries it as `correlationId`. */
  id: string | undefined;
}

/** What asking for shutdowns did. */
export interface ShutdownRequestOutcome {
  requests: ShutdownRequestRecord[];
}

/** The seams the shutdown operations of one caller use. */
export interface ShutdownParts {
  home: string;
  runId: string;
  /** The authenticated caller: a member, or the user. */
  caller: string;
  mailbox: Mailbox;
  stateOptions: StateOptions & { newId?: () => string };
}

/** `"*"`: every member that still works, the lead and the caller excepted. */
export const EVERY_MEMBER = '*';

function notLead(state: RuntimeState, caller: string, operation: string): TeamkitError {
  const lead = state.members.find((member) => member.isLead)?.name;
  return new TeamkitError(
    'NOT_LEAD',
    `Only the lead (${lead ?? 'none'}) and the user may ${operation}.`,
    { details: { member: caller, lead, operation } },
  );
}

function targetsOf(state: RuntimeState, caller: string, target: string): string[] {
  if (target !== EVERY_MEMBER) return [target];
  return state.members
    .filter((member) => !member.isLead && member.name !== caller && isActiveMember(member))
    .map((member) => member.name);
}

/**
 * As the lead or the user: records a shutdown request for `target` (a member, or `"*"`
 * for every member still working but the lead) and mails each a `shutdown_request`
 * carrying the request's id. A member with an open request keeps it; it is not asked twice.
 */
export async function requestShutdowns(
  parts: ShutdownParts,
  target: string,
  reason: string | undefined,
): Promise<ShutdownRequestOutcome> {
  if (typeof target !== 'string') {
    throw new TeamkitError('INVALID_INPUT', 'The member to shut down is named by a string.', {
      details: { target: typeof target },
    });
  }
  const { home, runId, caller } = parts;
  const before = await readRunState(home, runId, parts.stateOptions);
  const operation =
    target === EVERY_MEMBER ? 'shut down everyone in the run' : `ask ${target} to shut down`;
  if (!hasLeadRights(before, caller)) throw notLead(before, caller, operation);
  const outcome: ShutdownRequestOutcome = { requests: [] };
  for (const member of targetsOf(before, caller, target)) {
    const wasOpen = openShutdownRequest(before, member);
    const after = await requestShutdown(
      home,
      runId,
      { member, requester: caller, reason },
      parts.stateOptions,
    );
    const request = openShutdownRequest(after, member);
    outcome.requests.push({ member, id: request?.id });
    if (wasOpen !== undefined && wasOpen.id === request?.id) continue;
    await parts.mailbox.sendMessage({
      from: caller,
      to: member,
      kind: 'shutdown_request',
      body: `${reason ?? 'Please finish or hand off your work, then approve the shutdown.'}${request?.id === undefined ? '' : ` (shutdown request ${request.id})`}`,
      summary: 'shutdown requested',
      ...(request?.id === undefined ? {} : { correlationId: request.id }),
    });
  }
  return outcome;
}

function matchesId(request: ShutdownRequest, given: string): boolean {
  const wanted = given.toLowerCase();
  return request.id !== undefined && wanted.length >= 4 && request.id.startsWith(wanted);
}

/**
 * Answers the caller's own open shutdown request (`requestId`, when given, must name it,
 * in full or by a prefix of at least four characters: `UNKNOWN_REQUEST` otherwise) and
 * tells the requester. Approval moves the caller to `shutdown_approved`; its host then
 * stops it. No open request is `INVALID_TRANSITION`.
 */
export async function answerOwnShutdown(
  parts: ShutdownParts,
  approve: boolean,
  options: { reason?: string; requestId?: string },
): Promise<ShutdownRequestRecord> {
  const { home, runId, caller } = parts;
  const before = await readRunState(home, runId, parts.stateOptions);
  const request = openShutdownRequest(before, caller);
  const verb = approve ? 'approve' : 'reject';
  if (
    options.requestId !== undefined &&
    (request === undefined || !matchesId(request, options.requestId))
  ) {
    throw new TeamkitError(
      'UNKNOWN_REQUEST',
      `${caller} has no open shutdown request ${options.requestId}${request?.id === undefined ? '' : `; the open one is ${request.id}`}.`,
      { details: { member: caller, requestId: options.requestId, open: request?.id } },
    );
  }
  if (request === undefined) {
    throw new TeamkitError(
      'INVALID_TRANSITION',
      `${caller} has no open shutdown request to ${verb}.`,
      { details: { member: caller } },
    );
  }
  await answerShutdown(
    home,
    runId,
    caller,
    { approve, reason: options.reason },
    parts.stateOptions,
  );
  await parts.mailbox.sendMessage({
    from: caller,
    to: request.requester,
    kind: approve ? 'shutdown_approved' : 'shutdown_rejected',
    body: approve
      ? `${caller} approves the shutdown.`
      : `${caller} rejects the shutdown: ${options.reason ?? ''}`,
    summary: approve ? 'shutdown approved' : 'shutdown rejected',
    ...(request.id === undefined ? {} : { correlationId: request.id }),
  });
  return { member: caller, id: request.id };
}
