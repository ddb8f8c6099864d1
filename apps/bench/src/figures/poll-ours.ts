import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createMailbox } from '@teamkit/team-core';
import { MessageSchema } from '@teamkit/team-core/schema';
import { createFileStore, runPaths, serializeDocument } from '@teamkit/team-core/storage';
import type { PollSubject } from '../baselines/poll-subject.js';
import { messageText } from '../message-body.js';
import type { NotAvailable } from '../not-available.js';
import { BENCH_LOCK, ensureBenchRun } from './bench-run.js';

const SENDER = 'lead';
const RECIPIENT = 'builder';
const SEED_BATCH = 64;

/**
 * Teamkit's unread poll: `seed(unread, processed)` fills `builder`'s inbox with
 * `processed` acknowledged messages and `unread` messages sent with `sendMessage`;
 * `listUnread()` calls `listUnread` and resolves with the count. The acknowledged
 * history is written straight into `processed/` in the exact form `acknowledge` leaves
 * it (a valid message document per file), because sending and acknowledging 10k
 * durable messages would take minutes of untimed set-up.
 */
export async function createOursPollSubject(folder: string): Promise<PollSubject | NotAvailable> {
  const runId = await ensureBenchRun(folder);
  const mailbox = createMailbox({
    store: createFileStore({ root: folder }),
    home: folder,
    runId,
    lock: BENCH_LOCK,
  });
  const inbox = runPaths(folder, runId).inbox(RECIPIENT);
  return {
    async seed(unread, processed) {
      await rm(inbox, { recursive: true, force: true });
      await mkdir(path.join(inbox, 'processed'), { recursive: true });
      const now = Date.now();
      for (let first = 0; first < processed; first += SEED_BATCH) {
        const batch = Array.from({ length: Math.min(SEED_BATCH, processed - first) }, (_, k) => {
          const messageId = crypto.randomUUID();
          const text = serializeDocument(
            {
              version: 1,
              messageId,
              runId,
              from: SENDER,
              to: RECIPIENT,
              kind: 'message',
              body: messageText(SENDER, first + k),
              timestamp: now,
            },
            MessageSchema,
            `message ${messageId}`,
          );
          return writeFile(path.join(inbox, 'processed', `${messageId}.json`), text);
        });
        await Promise.all(batch);
      }
      for (let index = 0; index < unread; index++) {
        await mailbox.sendMessage({
          from: SENDER,
          to: RECIPIENT,
          body: messageText(SENDER, index),
        });
      }
    },
    async listUnread() {
      const { messages, problems } = await mailbox.listUnread(RECIPIENT);
      if (problems.length > 0) throw new Error(`listUnread reported ${problems.length} problems`);
      return messages.length;
    },
    async close() {},
  };
}
