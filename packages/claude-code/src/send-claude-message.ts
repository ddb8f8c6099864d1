import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { TeamkitError } from '@teamkit/team-core';
import { replaceFileAtomically } from './atomic-file.js';
import { type ClaudeLockOptions, withClaudeLock } from './claude-lock.js';
import { inboxFileOf } from './claude-paths.js';
import type { ClaudeWarning } from './claude-team-view.js';
import type { ReadTeamContext } from './read-claude-team.js';
import { readJsonWithRetry } from './read-json-with-retry.js';
import { requireWritableTeam } from './writable-team.js';

/** What {@link sendClaudeMessage} sends. */
export interface SendClaudeMessageInput {
  /** The team's folder name. */
  team: string;
  /** A member's name (`team-lead` for the lead) or agent id (`<name>@<team>`); never `*`. */
  to: string;
  /** The message itself, as the recipient's model will read it. */
  text: string;
  /** A one-line summary Claude Code shows beside the message. */
  summary?: string;
  /**
   * The sender's name shown to the recipient. Default `teamkit`. It may not be a member's
   * name nor one Claude Code reserves (`team-lead`, `user`, `system`): Claude Code marks
   * such a message as forged or unverified.
   */
  from?: string;
}

/** What {@link sendClaudeMessage} did. */
export interface SendClaudeMessageResult {
  readonly team: string;
  /** The recipient's member name. */
  readonly to: string;
  readonly from: string;
  /** The entry's `msg_id`. */
  readonly msgId: string;
  readonly timestamp: string;
  /** The inbox file written. */
  readonly inbox: string;
  /**
   * `pending`: the entry is in the inbox, waiting for Claude Code. `delivered`: by the
   * time it was read back after the lock was released, Claude Code had already taken it.
   */
  readonly state: 'pending' | 'delivered';
  readonly warnings: readonly ClaudeWarning[];
}

/** The most text one message may carry (bytes of UTF-8). */
export const MAX_CLAUDE_MESSAGE_BYTES = 100_000;
/** The default sender name of messages Teamkit writes. */
export const DEFAULT_CLAUDE_SENDER = 'teamkit';

const SENDER_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
const RESERVED_SENDERS = new Set(['team-lead', 'user', 'system']);

function checkInput(input: SendClaudeMessageInput): { from: string } {
  if (input.to === '*') {
    throw new TeamkitError(
      'BROADCAST_UNSUPPORTED',
      'Claude Code teams take no broadcast ("*"): Claude Code refuses it since 2.1.178. Send to each member by name.',
      { details: { team: input.team } },
    );
  }
  if (typeof input.to !== 'string' || input.to.trim() === '') {
    throw new TeamkitError(
      'INVALID_INPUT',
      'Name the recipient: a member of the team, or team-lead.',
    );
  }
  if (typeof input.text !== 'string' || input.text.trim() === '') {
    throw new TeamkitError('INVALID_INPUT', 'The message is empty; give the text to send.');
  }
  const bytes = Buffer.byteLength(input.text, 'utf8');
  if (bytes > MAX_CLAUDE_MESSAGE_BYTES) {
    throw new TeamkitError(
      'PAYLOAD_TOO_LARGE',
      `The message is ${bytes} bytes; at most ${MAX_CLAUDE_MESSAGE_BYTES} fit. Put long content in a file and send its path.`,
      { details: { bytes, limit: MAX_CLAUDE_MESSAGE_BYTES } },
    );
  }
  if (
    input.summary !== undefined &&
    (typeof input.summary !== 'string' ||
      /[\r\n]/.test(input.summary) ||
      input.summary.length > 200)
  ) {
    throw new TeamkitError('INVALID_INPUT', 'A summary is one line of at most 200 characters.');
  }
  const from = input.from ?? DEFAULT_CLAUDE_SENDER;
  if (typeof from !== 'string' || !SENDER_NAME.test(from)) {
    throw new TeamkitError(
      'INVALID_INPUT',
      `Sender name ${JSON.stringify(from)} is not valid: use letters, digits, "-" and "_" (at most 64).`,
    );
  }
  if (RESERVED_SENDERS.has(from.toLowerCase())) {
    throw new TeamkitError(
      'IDENTITY_MISMATCH',
      `"${from}" is a name Claude Code reserves for its own lead, user and system messages; send as yourself (the default is "${DEFAULT_CLAUDE_SENDER}").`,
      { details: { from } },
    );
  }
  return { from };
}

/**
 * Sends one message into a live Claude Code team, the way Claude Code itself writes
 * inboxes: under proper-lockfile's lock `<inbox>.lock`, the inbox is read, the entry
 * appended (every other entry kept exactly as it was), and the file atomically
 * replaced; the entry is then read back under the lock. Refuses broadcast, unknown
 * recipients (Claude Code would leave an inbox nobody reads) and senders that would
 * pose as a member; warns when the lead has no teammate.
 */
export async function sendClaudeMessage(
  context: ReadTeamContext,
  input: SendClaudeMessageInput,
  lockOptions: ClaudeLockOptions = {},
): Promise<SendClaudeMessageResult> {
  const { from } = checkInput(input);
  const team = await requireWritableTeam(context, input.team);
  const { members } = team.config;
  if (members.some((member) => member.name.toLowerCase() === from.toLowerCase())) {
    throw new TeamkitError(
      'IDENTITY_MISMATCH',
      `"${from}" is a member of team "${input.team}"; a message from outside may not carry a member's name. Send as yourself.`,
      { details: { from, team: input.team } },
    );
  }
  const recipient = members.find(
    (member) => member.name === input.to || member.agentId === input.to,
  );
  if (recipient === undefined) {
    throw new TeamkitError(
      'UNKNOWN_RECIPIENT',
      `Team "${input.team}" has no member "${input.to}"; its members are ${members.map((member) => member.name).join(', ') || 'none'}. Nothing was written.`,
      {
        details: { team: input.team, to: input.to, members: members.map((member) => member.name) },
      },
    );
  }
  const warnings = [...team.warnings];
  if (members.length < 2) {
    warnings.push({
      code: 'NO_TEAMMATES',
      message: `Team "${input.team}" has no teammates; Claude Code 2.1.328 was seen not to read a lone lead's inbox until it started a teammate.`,
    });
  }

  const inbox = inboxFileOf(team.paths, recipient.name);
  try {
    await mkdir(team.paths.inboxesFolder);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      throw new TeamkitError(
        'CLAUDE_TEAM_NOT_LIVE',
        `Claude Code team "${input.team}" ended while the message was being sent; nothing was written.`,
        { details: { team: input.team } },
      );
    }
    if (code !== 'EEXIST') throw error;
  }
  // Claude Code creates a missing inbox with `[]` exclusively before locking it.
  await writeFile(inbox, '[]', { flag: 'wx' }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });

  const msgId = randomUUID();
  const timestamp = new Date().toISOString();
  const entry = {
    from,
    text: input.text,
    ...(input.summary === undefined ? {} : { summary: input.summary }),
    timestamp,
    msgV: 1,
    msg_id: msgId,
    type: 'message',
    read: false,
  };
  const hasEntry = (value: unknown) =>
    Array.isArray(value) &&
    value.some((item) => typeof item === 'object' && item !== null && item.msg_id === msgId);

  await withClaudeLock(
    inbox,
    `${inbox}.lock`,
    async (lock) => {
      const read = await readJsonWithRetry(inbox, { attempts: 3 });
      const entries = read.kind === 'ok' ? read.value : read.kind === 'missing' ? [] : undefined;
      if (!Array.isArray(entries)) {
        throw new TeamkitError(
          'CORRUPT_DOCUMENT',
          `${inbox} is not a JSON array${read.kind === 'unreadable' ? ` (${read.reason})` : ''}; it was left as it is and nothing was written.`,
          { details: { file: inbox } },
        );
      }
      await replaceFileAtomically(inbox, JSON.stringify([...entries, entry], null, 2), () =>
        lock.assertHeld(),
      );
      const back = await readJsonWithRetry(inbox, { attempts: 3 });
      if (back.kind !== 'ok' || !hasEntry(back.value)) {
        throw new TeamkitError(
          'WRITE_NOT_VERIFIED',
          `The message was written to ${inbox} but is not there when read back under the lock; another program may have replaced the inbox without taking its lock.`,
          { details: { file: inbox, msgId } },
        );
      }
    },
    lockOptions,
  );

  const after = await readJsonWithRetry(inbox, { attempts: 3 });
  return {
    team: input.team,
    to: recipient.name,
    from,
    msgId,
    timestamp,
    inbox,
    state: after.kind === 'ok' && hasEntry(after.value) ? 'pending' : 'delivered',
    warnings,
  };
}
