// A member agent for the identity tests. It runs the `team` commands a test asks for as
// its own child processes, so they descend from the member's recorded process, with its
// TEAMKIT_* variables removed unless the request keeps or sets some (what an agent that
// tries to shed its identity would do), and writes back what each printed.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const [bin, folder, member] = process.argv.slice(2);
const request = path.join(folder, `${member}.request.json`);
const result = path.join(folder, `${member}.result.json`);
process.on('SIGTERM', () => process.exit(0));

const tick = () => {
  try {
    answer();
  } catch (error) {
    process.stderr.write(`member shell: ${error}\n`);
  }
  setTimeout(tick, 50);
};

const answer = () => {
  if (existsSync(request)) {
    const { args, keep = [], set = {} } = JSON.parse(readFileSync(request, 'utf8'));
    renameSync(request, `${request}.taken`);
    const env = { ...process.env };
    for (const name of Object.keys(env)) {
      if (name.startsWith('TEAMKIT_') && !keep.includes(name)) delete env[name];
    }
    Object.assign(env, set);
    const run = spawnSync(process.execPath, [bin, ...args], { env, encoding: 'utf8' });
    writeFileSync(
      `${result}.tmp`,
      JSON.stringify({ code: run.status ?? 1, stdout: run.stdout, stderr: run.stderr }),
    );
    renameSync(`${result}.tmp`, result);
  }
};
tick();
