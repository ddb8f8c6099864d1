import { randomUUID } from 'node:crypto';
import { mkdir, open, rename } from 'node:fs/promises';
import path from 'node:path';
import { messageDocument } from '../message-body.js';
import type { MessageSender, SenderOptions } from './message-sender.js';

/**
 * The floor for a durable one-file-per-message send: write a temp file, fsync it,
 * rename it into the recipient's folder, fsync the folder. Nothing cheaper survives
 * power loss without a log; nothing here validates, locks or dedupes.
 */
export async function createRawFloorSender(options: SenderOptions): Promise<MessageSender> {
  const inbox = path.join(options.folder, options.recipient);
  await mkdir(inbox, { recursive: true });
  return {
    async send(index) {
      const name = `${randomUUID()}.json`;
      const temp = path.join(inbox, `.tmp-${name}`);
      const file = await open(temp, 'wx');
      try {
        await file.writeFile(messageDocument(options.sender, options.recipient, index));
        await file.sync();
      } finally {
        await file.close();
      }
      await rename(temp, path.join(inbox, name));
      const folder = await open(inbox, 'r');
      try {
        await folder.sync();
      } finally {
        await folder.close();
      }
    },
    async close() {},
  };
}
