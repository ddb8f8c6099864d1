import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { messageDocument } from '../message-body.js';

const SEED_BATCH = 64;

/** An inbox the poll figure fills and then lists repeatedly. */
export interface PollSubject {
  /**
   * Prepares the recipient's inbox with `unread` unread messages and `processed`
   * acknowledged ones; not timed.
   */
  seed(unread: number, processed: number): Promise<void>;
  /** Lists (and reads) the unread messages; resolves with how many there are. */
  listUnread(): Promise<number>;
  close(): Promise<void>;
}

/**
 * The raw floor of a poll on Teamkit's layout: one `readdir` of the inbox folder and a
 * read + JSON.parse of each unread file; acknowledged files sit in `processed/`. Both
 * calls are synchronous, as in Teamkit's store, so the ratio compares work, not call
 * styles.
 */
export function createRawPollSubject(folder: string): PollSubject {
  const inbox = path.join(folder, 'inbox');
  return {
    async seed(unread, processed) {
      await rm(inbox, { recursive: true, force: true });
      await mkdir(path.join(inbox, 'processed'), { recursive: true });
      for (let first = 0; first < processed; first += SEED_BATCH) {
        const batch = Array.from({ length: Math.min(SEED_BATCH, processed - first) }, (_, offset) =>
          writeFile(
            path.join(inbox, 'processed', `processed-${first + offset}.json`),
            messageDocument('lead', 'builder', first + offset),
          ),
        );
        await Promise.all(batch);
      }
      for (let index = 0; index < unread; index++) {
        await writeFile(
          path.join(inbox, `unread-${index}.json`),
          messageDocument('lead', 'builder', index),
        );
      }
    },
    async listUnread() {
      const entries = readdirSync(inbox, { withFileTypes: true });
      let count = 0;
      for (const entry of entries) {
        if (!entry.isFile() || entry.name.startsWith('.') || !entry.name.endsWith('.json'))
          continue;
        JSON.parse(readFileSync(path.join(inbox, entry.name), 'utf8'));
        count++;
      }
      return count;
    },
    async close() {},
  };
}
