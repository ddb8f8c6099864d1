import { randomUUID } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import { messageText } from '../message-body.js';
import type { MessageSender, SenderOptions } from './message-sender.js';

/** Options for {@link createClaudeInboxSender}. */
export interface ClaudeInboxOptions extends SenderOptions {
  /** proper-lockfile retries; Claude Code uses 10, more writers need more to never give up. */
  lockRetries: number;
}

/** The path of a recipient's inbox in Claude Code's layout: `inboxes/<name>.json`. */
export function claudeInboxPath(folder: string, recipient: string): string {
  return path.join(folder, 'inboxes', `${recipient}.json`);
}

/** One inbox entry as Claude Code writes it (2.1.3x fields plus the 2.1.328 additions). */
function claudeEntry(sender: string, index: number): Record<string, unknown> {
  return {
    from: sender,
    text: messageText(sender, index),
    summary: 'Review the parser change',
    timestamp: new Date().toISOString(),
    color: 'blue',
    msgV: 1,
    msg_id: randomUUID(),
    type: 'message',
    read: false,
  };
}

/**
 * Writes an inbox holding `count` earlier messages, the way it looks after a busy
 * session; not timed.
 */
export async function seedClaudeInbox(
  folder: string,
  recipient: string,
  count: number,
): Promise<void> {
  const inbox = claudeInboxPath(folder, recipient);
  await mkdir(path.dirname(inbox), { recursive: true });
  const entries = Array.from({ length: count }, (_, index) => claudeEntry('team-lead', index));
  await writeFile(inbox, JSON.stringify(entries, null, 2));
}

/** How many entries the inbox holds now; the figures check it so no send was lost. */
export async function countClaudeInbox(folder: string, recipient: string): Promise<number> {
  const entries = JSON.parse(await readFile(claudeInboxPath(folder, recipient), 'utf8'));
  return (entries as unknown[]).length;
}

/**
 * Claude Code's inbox send, reproduced: ensure `<inbox>.json` exists (`[]`, flag `wx`),
 * take the proper-lockfile lock at `<inbox>.json.lock`, re-read the whole array, push,
 * write the whole array back with a plain writeFile (no fsync, no rename), release.
 */
export async function createClaudeInboxSender(options: ClaudeInboxOptions): Promise<MessageSender> {
  const inbox = claudeInboxPath(options.folder, options.recipient);
  await mkdir(path.dirname(inbox), { recursive: true });
  return {
    async send(index) {
      try {
        await writeFile(inbox, '[]', { encoding: 'utf8', flag: 'wx' });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const release = await lockfile.lock(inbox, {
        lockfilePath: `${inbox}.lock`,
        retries: { retries: options.lockRetries, minTimeout: 5, maxTimeout: 100 },
      });
      try {
        const messages = JSON.parse(await readFile(inbox, 'utf8')) as unknown[];
        messages.push(claudeEntry(options.sender, index));
        await writeFile(inbox, JSON.stringify(messages, null, 2), 'utf8');
      } finally {
        await release();
      }
    },
    async close() {},
  };
}
