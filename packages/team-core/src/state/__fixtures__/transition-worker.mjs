// Moves one member between running and idle and counts a turn on every step,
// printing the step number after each completed step, until it is killed.
import { recordTurn, transitionMember } from '@teamkit/team-core/state';
import { createFileStore } from '@teamkit/team-core/storage';

const [home, runId] = process.argv.slice(2);
const options = {
  store: createFileStore({ root: home }),
  lock: { staleMs: 2_000, timeoutMs: 30_000 },
};
for (let step = 1; step <= 100_000; step += 1) {
  await transitionMember(home, runId, 'writer', step % 2 === 1 ? 'idle' : 'running', options);
  await recordTurn(home, runId, 'writer', options);
  process.stdout.write(`${step}\n`);
}
