// Waits for "go" on stdin, then tries to create each round's file; reports per round.
import { writeSync } from 'node:fs';
import path from 'node:path';
import { isTeamkitError } from '@teamkit/team-core/errors';
import { createFileAtomically } from '@teamkit/team-core/storage';

const [folder, rounds, id] = process.argv.slice(2);
const content = (round) => JSON.stringify({ id, round, payload: id.repeat(50_000) });

writeSync(1, 'ready\n');
process.stdin.once('data', async () => {
  const results = [];
  for (let round = 0; round < Number(rounds); round += 1) {
    try {
      await createFileAtomically(path.join(folder, `file-${round}.json`), content(round));
      results.push('won');
    } catch (error) {
      results.push(isTeamkitError(error) ? error.code : String(error));
    }
  }
  writeSync(1, `${JSON.stringify(results)}\n`);
  process.exit(0);
});
