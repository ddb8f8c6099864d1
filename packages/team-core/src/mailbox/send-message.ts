import {
  errorMessage,
  isTeamkitError,
  TeamkitError,
  type TeamkitErrorCode,
} from '../errors/index.js';
import { describeIssues } from '../schema/describe-issues.js';
import {
  type Message,
  type MessageKind,
  type MessageReference,
  MessageSchema,
  type RuntimeState,
} from '../schema/index.js';
import { TEAMKIT_SENDER, USER_PARTICIPANT } from '../schema/names.js';
import { findParticipant, isActiveMember, userParticipant } from '../state/run-members.js';
import { serializeDocument } from '../storage/index.js';
import { assertMessageIds } from './inbox-layout.js';
import type { MailboxParts } from './mailbox-parts.js';

/** What a member sends. `from` is the authenticated caller the host passes in. */
export interface SendMessageInput {
  from: string;
  /**
   * A member name, `user` (the person running Teamkit), or `"*"` for a broadcast to every
   * other active member of the roster (the user gets no copy of a broadcast).
   */
  to: string;
  kind?: MessageKind;
  body: string;
  summary?: string;
  references?: MessageReference[];
  correlationId?: string;
  color?: string;
  /** A caller-chosen id (lowercase UUID) so a retried send is refused as a duplicate. */
  messageId?: string;
}

/** A recipient a broadcast copy could not be written to, and why. */
export interface RecipientRefusal {
  member: string;
  code: TeamkitErrorCode;
  message: string;
}

/** The per-recipient outcome of a send. */
export interface SendMessageResult {
  messageId: string;
  /** Recipients whose copy is durably in their inbox. */
  delivered: string[];
  /** Broadcast recipients whose copy was refused (a direct send throws instead). */
  refused: RecipientRefusal[];
}

const BROADCAST = '*';

/** Validates a send, writes one durable copy per recipient and logs it. */
export async function sendMessage(
  parts: MailboxParts,
  input: SendMessageInput,
): Promise<SendMessageResult> {
  const { run } = parts;
  const state = await run.writableState();
  // Teamkit's own notices come from `teamkit`, which has no rights but to send.
  const sender =
    input.from === TEAMKIT_SENDER
      ? { ...userParticipant(), name: TEAMKIT_SENDER, isLead: false }
      : findParticipant(state, input.from);
  const messageId = (input.messageId ?? parts.newId()).toLowerCase();
  const isBroadcast = input.to === BROADCAST;
  const candidate = {
    version: 1 as const,
    messageId,
    runId: run.runId,
    from: input.from,
    to: isBroadcast ? input.from : input.to,
    ...(isBroadcast ? { broadcast: true } : {}),
    kind: input.kind ?? 'message',
    body: input.body,
    summary: input.summary,
    references: input.references,
    timestamp: run.now(),
    correlationId: input.correlationId,
    color: input.color,
  };
  const parsed = MessageSchema.safeParse(candidate);
  if (!parsed.success) {
    const issues = describeIssues(parsed.error, Number.POSITIVE_INFINITY);
    throw new TeamkitError('INVALID_INPUT', `Refused message: ${issues.join('; ')}.`, {
      details: { issues },
    });
  }
  assertMessageIds([messageId]);
  const bodyBytes = Buffer.byteLength(input.body);
  if (bodyBytes > state.policy.payloadMaxBytes) {
    throw new TeamkitError(
      'PAYLOAD_TOO_LARGE',
      `The message body is ${bodyBytes} bytes; the cap is ${state.policy.payloadMaxBytes} bytes (policy.payloadMaxBytes). Send a summary and reference a file instead.`,
      { details: { bytes: bodyBytes, payloadMaxBytes: state.policy.payloadMaxBytes } },
    );
  }
  if (isBroadcast && state.policy.broadcast !== 'everyone' && !sender.isLead) {
    throw new TeamkitError(
      'BROADCAST_NOT_PERMITTED',
      `${input.from} may not broadcast: the team policy allows broadcast to the lead only. Send to a member by name.`,
      { details: { from: input.from, rule: state.policy.broadcast } },
    );
  }
  const recipients = isBroadcast
    ? state.members
        .filter((member) => member.name !== input.from && isActiveMember(member))
        .map((member) => member.name)
    : [directRecipient(state, input.to)];

  // Each copy is written or refused on its own; whatever happens to one, the others are
  // still tried and the outcome names every recipient.
  const result: SendMessageResult = { messageId, delivered: [], refused: [] };
  for (const recipient of recipients) {
    const copy: Message = { ...parsed.data, to: recipient };
    try {
      await storeCopy(parts, state, copy);
      result.delivered.push(recipient);
    } catch (error) {
      const refusal = await copyFailure(parts, error, recipient, messageId);
      if (refusal === undefined) {
        result.delivered.push(recipient);
        continue;
      }
      if (!isBroadcast) throw refusal;
      result.refused.push({ member: recipient, code: refusal.code, message: refusal.message });
    }
  }
  if (result.delivered.length > 0) {
    try {
      await run.logEvent(input.from, 'message.sent', [messageId], {
        to: input.to,
        kind: candidate.kind,
        delivered: result.delivered,
        ...(result.refused.length > 0
          ? { refused: result.refused.map(({ member, code }) => ({ member, code })) }
          : {}),
      });
    } catch (error) {
      throw new TeamkitError(
        'IO_ERROR',
        `Message ${messageId} was stored for ${result.delivered.join(', ')}, but its event could not be logged (${errorMessage(error)}). The copies stay delivered: do not send it again.`,
        { cause: error, details: { ...result } },
      );
    }
  }
  return result;
}

// Failures that may come after the copy became visible (a lost lock, a failed folder
// sync), as opposed to refusals, which always come before anything is written.
const STORE_FAILURES: readonly TeamkitErrorCode[] = ['IO_ERROR', 'LOCK_COMPROMISED'];

/**
 * A copy's failure as a typed error, or `undefined` when the copy is in the recipient's
 * inbox after all (the store failed after making it visible). Refusals keep their code;
 * store failures are `IO_ERROR` or `LOCK_COMPROMISED`.
 */
async function copyFailure(
  parts: MailboxParts,
  error: unknown,
  recipient: string,
  messageId: string,
): Promise<TeamkitError | undefined> {
  if (isTeamkitError(error) && !STORE_FAILURES.includes(error.code)) return error;
  const stored = await parts.inboxes.messageState(recipient, messageId).then(
    (where) => (where === undefined ? 'no' : 'yes'),
    () => 'unknown',
  );
  if (stored === 'yes') return undefined;
  if (isTeamkitError(error) && stored === 'no') return error;
  return new TeamkitError(
    isTeamkitError(error) ? error.code : 'IO_ERROR',
    `Storing message ${messageId} for ${recipient} failed: ${errorMessage(error)} ${stored === 'no' ? `No copy is in ${recipient}'s inbox; sending it again with the same messageId is safe.` : `Whether a copy reached ${recipient}'s inbox is unknown; send it again with the same messageId (a stored copy refuses it as a duplicate).`}`,
    { cause: error, details: { messageId, recipient } },
  );
}

function directRecipient(state: RuntimeState, to: string): string {
  const valid = [
    ...state.members.filter((m) => m.status !== 'terminated').map((m) => m.name),
    USER_PARTICIPANT,
  ];
  if (!valid.includes(to)) {
    throw new TeamkitError(
      'UNKNOWN_RECIPIENT',
      `No member ${JSON.stringify(to)} can receive messages in run ${state.runId}; valid recipients: ${valid.join(', ')}.`,
      { details: { recipient: to, validRecipients: valid } },
    );
  }
  return to;
}

/**
 * Stores one copy, refused when the recipient already has the id, when it would pass the
 * recipient's unread cap, or when the run's message bound is reached.
 */
async function storeCopy(parts: MailboxParts, state: RuntimeState, message: Message) {
  const recipient = message.to;
  const text = serializeDocument(message, MessageSchema, `message ${message.messageId}`);
  const bytes = Buffer.byteLength(text);
  try {
    await parts.inboxes.addMessage(recipient, message.messageId, text, async (pending) => {
      const cap = state.policy.unreadMaxBytes;
      if (pending.bytes + bytes > cap) {
        throw new TeamkitError(
          'RECIPIENT_BACKPRESSURE',
          `${recipient} has ${pending.bytes} unread bytes; this ${bytes}-byte message would pass the unread cap of ${cap} bytes. Wait until ${recipient} reads its mail.`,
          {
            details: {
              recipient,
              unreadBytes: pending.bytes,
              messageBytes: bytes,
              unreadMaxBytes: cap,
            },
          },
        );
      }
      const max = state.policy.bounds.maxMessagesPerRun;
      if ((await parts.budget.take(max)) === undefined) {
        throw new TeamkitError(
          'BOUND_EXCEEDED',
          `Run ${state.runId} reached its bound of ${max} messages (policy.bounds.maxMessagesPerRun).`,
          { details: { bound: 'maxMessagesPerRun', limit: max } },
        );
      }
    });
  } catch (error) {
    if (!isTeamkitError(error, 'ALREADY_EXISTS')) throw error;
    throw new TeamkitError(
      'DUPLICATE_MESSAGE_ID',
      `Message ${message.messageId} already exists in ${recipient}'s inbox; nothing was written. Use a new id.`,
      { details: { messageId: message.messageId, recipient } },
    );
  }
}
