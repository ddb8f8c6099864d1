// A long-lived member for tests: notes that it started (and which `team` its PATH finds),
// then waits for mail with `team inbox --wait`, so the supervisor counts it idle.
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync } from 'node:fs';

const [log, tag] = process.argv.slice(2);
const which = spawnSync('sh', ['-c', 'command -v team'], { encoding: 'utf8' }).stdout.trim();
appendFileSync(
  log,
  `${JSON.stringify({ member: process.env.TEAMKIT_MEMBER, tag, team: which })}\n`,
);
for (;;) {
  try {
    execFileSync('team', ['inbox', '--wait', '600', '--ack'], { stdio: 'ignore' });
  } catch {
    process.exit(1);
  }
}
