// Races for every task of a run on the NATS store: tries to claim each id in its own
// random order, through team-core's task list, as one member process would.
import { createNatsStore } from '@teamkit/store-nats';
import { createTaskList, isTeamkitError } from '@teamkit/team-core';

const [servers, bucketPrefix, home, runId, member, count] = process.argv.slice(2);
const store = await createNatsStore({ servers, bucketPrefix, timeoutMs: 60_000 });
const tasks = createTaskList({ home, runId, store, lock: { timeoutMs: 60_000 } });
const ids = Array.from({ length: Number(count) }, (_, i) => String(i + 1));
for (let i = ids.length - 1; i > 0; i -= 1) {
  const j = Math.floor(Math.random() * (i + 1));
  [ids[i], ids[j]] = [ids[j], ids[i]];
}
process.stdout.write('ready\n');
const won = [];
for (const id of ids) {
  try {
    await tasks.claimTask(member, id);
    won.push(id);
  } catch (error) {
    if (!isTeamkitError(error, 'ALREADY_CLAIMED')) throw error;
  }
}
process.stdout.write(`${JSON.stringify({ member, won })}\n`);
await store.close();
