// Stands for a member's agent process (started with its TEAMKIT_* variables). For each
// JSON line `{ "env": {...}, "home": "..." }` on stdin it runs identify-caller.mjs as its
// child with exactly that environment, and prints the child's answer as one line.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'identify-caller.mjs');
process.stdout.write('ready\n');
createInterface({ input: process.stdin }).on('line', (line) => {
  const { env, home } = JSON.parse(line);
  const run = spawnSync(process.execPath, [...process.execArgv, script, home], {
    env,
    encoding: 'utf8',
  });
  process.stdout.write(`${(run.stdout || run.stderr).trim().split('\n').at(-1)}\n`);
});
