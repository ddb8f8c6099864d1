// Increments the number in a counter file `times` times, each under the file's lock.
import { withLock } from '@teamkit/team-core/storage';
import { guardedWrites as store } from './guarded-writes.mjs';

const [target, times] = process.argv.slice(2);

for (let i = 0; i < Number(times); i += 1) {
  await withLock(
    target,
    async (lock) => {
      const current = Number((await store.readText(target)) ?? '0');
      await store.writeText(target, String(current + 1), lock);
    },
    { staleMs: 10_000, timeoutMs: 120_000 },
  );
}
process.stdout.write('done\n');
