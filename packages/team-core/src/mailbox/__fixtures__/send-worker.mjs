// Sends `count` messages round-robin to the given recipients; prints "<recipient> <id>" per message.
import { createMailbox } from '@teamkit/team-core';
import { createFileStore } from '@teamkit/team-core/storage';

const [home, runId, from, count, ...recipients] = process.argv.slice(2);
const store = createFileStore({ root: home });
const mailbox = createMailbox({ home, runId, store, lock: { timeoutMs: 60_000 } });
process.stdout.write('ready\n');
for (let i = 0; i < Number(count); i += 1) {
  const to = recipients[i % recipients.length];
  const sent = await mailbox.sendMessage({ from, to, body: `${from} #${i}` });
  process.stdout.write(`${to} ${sent.messageId}\n`);
}
