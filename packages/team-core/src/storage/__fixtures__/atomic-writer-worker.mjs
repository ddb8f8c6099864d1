// Once told "<first number>" on stdin, replaces one document in a loop until killed,
// reporting each number after its write completed. Starting before the go keeps the
// cost of starting Node.js out of the time between go and kill.
import { createHash } from 'node:crypto';
import { writeSync } from 'node:fs';
import { writeFileAtomically } from '@teamkit/team-core/storage';

const [target] = process.argv.slice(2);

writeSync(1, 'ready\n');
process.stdin.once('data', async (chunk) => {
  for (let n = Number(String(chunk).trim()); ; n += 1) {
    const payload = String(n % 10).repeat(4_096 + ((n * 7_919) % 60_000));
    const digest = createHash('sha256').update(payload).digest('hex');
    await writeFileAtomically(target, JSON.stringify({ version: 1, n, payload, digest }));
    writeSync(1, `${n}\n`);
  }
});
