import { JetStreamApiError } from '@nats-io/jetstream';
import {
  AuthorizationError,
  ClosedConnectionError,
  ConnectionError,
  DrainingConnectionError,
  NoRespondersError,
  PermissionViolationError,
  RequestError,
  TimeoutError,
  UserAuthenticationExpiredError,
} from '@nats-io/transport-node';
import { isTeamkitError, TeamkitError } from '@teamkit/team-core';

/**
 * Whether a failure may pass once the server answers again: a timeout, no responder
 * (JetStream still starting, or the server restarting), a lost connection, a network that
 * cannot reach the server (link down, no route to the host), or a
 * JetStream "temporarily unavailable" (503) answer. These are retried until the store's
 * deadline and then become `STORE_UNAVAILABLE`.
 */
export function isTransient(error: unknown): boolean {
  if (error instanceof TimeoutError || error instanceof NoRespondersError) return true;
  if (isNetworkFailure(error)) return true;
  // JetStream not answering yet after a (re)start; the class is not exported by name.
  if (error instanceof Error && error.name === 'JetStreamNotEnabled') return true;
  if (error instanceof ConnectionError) return true;
  if (error instanceof RequestError) {
    return error.isNoResponders() || error.cause instanceof TimeoutError;
  }
  if (error instanceof JetStreamApiError) return error.status === 503;
  return false;
}

// What a socket reports when the network, not the server, fails: the link is down, no
// route to the host, the host does not answer. The client passes these through as they are.
const NETWORK_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
]);

function isNetworkFailure(error: unknown): boolean {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 4; depth += 1) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && NETWORK_ERRNOS.has(code)) return true;
    cause = cause.cause;
  }
  return false;
}

/** Whether a compare-and-set publish was refused because the subject moved on. */
export function isWrongLastSequence(error: unknown): boolean {
  return error instanceof JetStreamApiError && (error.code === 10071 || error.code === 10164);
}

/** Whether the connection was closed by this process (the store was closed). */
export function isClosed(error: unknown): boolean {
  return error instanceof ClosedConnectionError || error instanceof DrainingConnectionError;
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

/** What an operation was doing, for messages: `write`, and the Teamkit key it concerns. */
export interface OperationContext {
  what: string;
  key: string;
  servers: string;
  timeoutMs: number;
}

/** The `STORE_UNAVAILABLE` error of an operation that ran out of time. */
export function unavailable(context: OperationContext, cause: unknown): TeamkitError {
  return new TeamkitError(
    'STORE_UNAVAILABLE',
    `Could not ${context.what} ${context.key}: the NATS server (${context.servers}) did not answer within ${context.timeoutMs} ms (${describe(cause)}). It may or may not have been applied: read ${context.key} again once the server is reachable.`,
    {
      cause,
      details: { key: context.key, servers: context.servers, timeoutMs: context.timeoutMs },
    },
  );
}

/**
 * Maps anything the NATS client threw to a `TeamkitError`: permission problems are
 * `PERMISSION_DENIED` (the NATS user lacks a permission), a closed store is
 * `STORE_UNAVAILABLE`, everything else `IO_ERROR`, each naming the key and what to do.
 */
export function toStoreError(error: unknown, context: OperationContext): TeamkitError {
  if (isTeamkitError(error)) return error;
  if (error instanceof AuthorizationError || error instanceof UserAuthenticationExpiredError) {
    return new TeamkitError(
      'PERMISSION_DENIED',
      `The NATS server (${context.servers}) refused the store's credentials when asked to ${context.what} ${context.key} (${describe(error)}). Check the user and password, nkey seed or credentials file the store is given.`,
      { cause: error, details: { key: context.key, servers: context.servers } },
    );
  }
  const violation = [error, (error as { cause?: unknown } | undefined)?.cause].find(
    (candidate) => candidate instanceof PermissionViolationError,
  );
  if (violation !== undefined) {
    return new TeamkitError(
      'PERMISSION_DENIED',
      `The NATS server refused to let the store ${context.what} ${context.key} (${describe(violation)}). Give the store's NATS user the rights docs/distributed.md lists, or a NATS account of its own.`,
      { cause: error, details: { key: context.key, servers: context.servers } },
    );
  }
  if (isClosed(error)) {
    return new TeamkitError(
      'STORE_UNAVAILABLE',
      `Could not ${context.what} ${context.key}: the NATS store was closed. Open it again.`,
      { cause: error, details: { key: context.key } },
    );
  }
  if (isTransient(error)) return unavailable(context, error);
  return new TeamkitError(
    'IO_ERROR',
    `Could not ${context.what} ${context.key}: ${describe(error)} (NATS server ${context.servers}). Check the server's log, the store's TLS and credentials settings, and its streams (docs/distributed.md).`,
    { cause: error, details: { key: context.key, servers: context.servers } },
  );
}
