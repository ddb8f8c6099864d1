// Races for every task: tries to claim each id in its own random order.
import { createTaskList, isTeamkitError } from '@teamkit/team-core';
import { createFileStore } from '@teamkit/team-core/storage';

const [home, runId, member, count] = process.argv.slice(2);
const store = createFileStore({ root: home });
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
