// A member command for the conformance suite: it waits for mail with `team inbox --wait`
// again and again, as an agent CLI would, printing what it receives.
import { spawnSync } from 'node:child_process';

const bin = process.argv[2];
for (;;) {
  spawnSync(process.execPath, [bin, 'inbox', '--wait', '30', '--ack'], { stdio: 'inherit' });
}
