// One chaos trial: works as a sender, an acker or a claimer until it is SIGKILLed.
// Prints a line only after the operation it reports is durable.
import { createMailbox, createTaskList, isTeamkitError } from '@teamkit/team-core';
import { createFileStore } from '@teamkit/team-core/storage';

const [home, runId, role, member, ...recipients] = process.argv.slice(2);
const store = createFileStore({ root: home });
const lock = { staleMs: 2_000, timeoutMs: 30_000 };
const mailbox = createMailbox({ home, runId, store, lock });
const tasks = createTaskList({ home, runId, store, lock });
const pick = (items) => items[Math.floor(Math.random() * items.length)];
// Warm up (first state read, lazy code paths) so kills land in real work, not start-up.
if (role === 'claimer') await tasks.listTasks();
else await mailbox.listUnread(recipients[0]);
process.stdout.write('ready\n');

const MAX_STEPS = 40;
let claims = 0;
for (let step = 0; step < MAX_STEPS; step += 1) {
  if (role === 'sender') {
    const to = pick(recipients);
    const sent = await mailbox.sendMessage({ from: member, to, body: `chaos ${step}` });
    process.stdout.write(`sent ${to} ${sent.messageId}\n`);
  } else if (role === 'acker') {
    const inbox = pick(recipients);
    const { messages } = await mailbox.listUnread(inbox);
    const ids = messages.slice(0, 3).map((message) => message.messageId);
    const { reserved } = await mailbox.reserve(inbox, ids);
    const reservedIds = reserved.map((message) => message.messageId);
    const choice = Math.random();
    if (choice < 0.4) await mailbox.commit(inbox, reservedIds);
    else if (choice < 0.7) await mailbox.acknowledge(inbox, reservedIds);
    else await mailbox.release(inbox, reservedIds);
  } else {
    const ready = await tasks.readyTasks();
    if (ready.length === 0) break;
    const id = pick(ready).id;
    try {
      await tasks.claimTask(member, id);
      process.stdout.write(`claimed ${id}\n`);
      claims += 1;
      if (claims >= 2) break;
    } catch (error) {
      if (!isTeamkitError(error, 'ALREADY_CLAIMED')) throw error;
    }
  }
}
