import { randomUUID } from 'node:crypto';
import { closeSync, fsync, openSync, renameSync, writeSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { messageDocument } from '../message-body.js';
import type { MessageSender, SenderOptions } from './message-sender.js';

const fsyncDescriptor = promisify(fsync);

/**
 * The floor for a durable one-file-per-message send: write a temp file, fsync it,
 * rename it into the recipient's folder, fsync the folder. Nothing cheaper survives
 * power loss without a log; nothing here validates, locks or dedupes. It makes its
 * calls the way Teamkit's store does, so the ratio compares work, not call styles:
 * the two fsyncs wait on the thread pool, the rest (create, write, close, rename,
 * opening the folder) are synchronous.
 */
export async function createRawFloorSender(options: SenderOptions): Promise<MessageSender> {
  const inbox = path.join(options.folder, options.recipient);
  await mkdir(inbox, { recursive: true });
  return {
    async send(index) {
      const name = `${randomUUID()}.json`;
      const temp = path.join(inbox, `.tmp-${name}`);
      const file = openSync(temp, 'wx');
      try {
        writeSync(file, messageDocument(options.sender, options.recipient, index));
        await fsyncDescriptor(file);
      } finally {
        closeSync(file);
      }
      renameSync(temp, path.join(inbox, name));
      const folder = openSync(inbox, 'r');
      try {
        await fsyncDescriptor(folder);
      } finally {
        closeSync(folder);
      }
    },
    async close() {},
  };
}
