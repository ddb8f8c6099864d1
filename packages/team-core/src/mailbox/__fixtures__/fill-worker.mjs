// Sends `count` 200-byte messages to one recipient; prints "sent <id>" or "refused" per attempt.
import { createMailbox, isTeamkitError } from '@teamkit/team-core';
import { createFileStore } from '@teamkit/team-core/storage';

const [home, runId, from, to, count] = process.argv.slice(2);
const store = createFileStore({ root: home });
const mailbox = createMailbox({ home, runId, store, lock: { timeoutMs: 60_000 } });
process.stdout.write('ready\n');
for (let i = 0; i < Number(count); i += 1) {
  try {
    const sent = await mailbox.sendMessage({ from, to, body: 'x'.repeat(200) });
    process.stdout.write(`sent ${sent.messageId}\n`);
  } catch (error) {
    if (!isTeamkitError(error, 'RECIPIENT_BACKPRESSURE')) throw error;
    process.stdout.write('refused\n');
  }
}
