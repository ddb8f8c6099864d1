// A member command for the tmux tests: it reports who and where it is, then waits to be stopped.
import { writeFileSync } from 'node:fs';

const [report, ...rest] = process.argv.slice(2);
writeFileSync(
  report,
  JSON.stringify({
    member: process.env.TEAMKIT_MEMBER,
    run: process.env.TEAMKIT_RUN,
    pid: process.pid,
    tty: Boolean(process.stdout.isTTY),
    args: rest,
  }),
);
process.on('SIGTERM', () => process.exit(0));
setInterval(() => {}, 1_000);
