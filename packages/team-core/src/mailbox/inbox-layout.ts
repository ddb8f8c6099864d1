import path from 'node:path';
import { TeamkitError } from '../errors/index.js';
import type { Message } from '../schema/index.js';

const MESSAGE_FILE = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.json$/;
const RESERVED_FILE =
  /^\.delivering-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.json$/;

/** Prefix of staged temp files; they are never messages. */
export const TEMP_PREFIX = '.tmp-';

/** The three names a message moves between, as renames inside one inbox. */
export function messageFiles(inbox: string, messageId: string) {
  return {
    unread: path.join(inbox, `${messageId}.json`),
    reserved: path.join(inbox, `.delivering-${messageId}.json`),
    processed: path.join(inbox, 'processed', `${messageId}.json`),
  };
}

/** The one name of a message in `state` (see {@link messageFiles}). */
export function messageFile(
  inbox: string,
  messageId: string,
  state: 'unread' | 'reserved' | 'processed',
): string {
  if (state === 'unread') return path.join(inbox, `${messageId}.json`);
  if (state === 'reserved') return path.join(inbox, `.delivering-${messageId}.json`);
  return path.join(inbox, 'processed', `${messageId}.json`);
}

/** The message id of an unread file name, or `undefined` for anything else. */
export function unreadIdOf(name: string): string | undefined {
  return MESSAGE_FILE.exec(name)?.[1];
}

/** The message id of a reserved file name, or `undefined` for anything else. */
export function reservedIdOf(name: string): string | undefined {
  return RESERVED_FILE.exec(name)?.[1];
}

/** Checks ids before they become file names (`INVALID_INPUT`). */
export function assertMessageIds(ids: readonly string[]): void {
  const bad = ids.filter((id) => typeof id !== 'string' || unreadIdOf(`${id}.json`) !== id);
  if (bad.length > 0) {
    throw new TeamkitError(
      'INVALID_INPUT',
      `Message ids must be lowercase UUIDs; refused: ${bad.join(', ')}.`,
      {
        details: { ids: bad },
      },
    );
  }
}

/** The order messages are listed and delivered in: by timestamp, then by id. */
export function compareByArrival(a: Message, b: Message): number {
  if (a.timestamp !== b.timestamp) return a.timestamp - b.timestamp;
  return a.messageId < b.messageId ? -1 : a.messageId > b.messageId ? 1 : 0;
}
