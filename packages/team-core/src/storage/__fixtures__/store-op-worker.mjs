// Opens the file store at argv[2] and runs one store call per stdin line
// (`{ "id", "op", "args" }`), answering `{ "id", "ok", "result" | "code", "message" }`.
// With `--unprivileged` a root process drops to uid/gid 65534 first, so file modes bite.
import { writeSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { isTeamkitError } from '@teamkit/team-core/errors';
import { createFileStore } from '@teamkit/team-core/storage';

const [root, flag] = process.argv.slice(2);
if (flag === '--unprivileged' && process.getuid?.() === 0) {
  process.setegid(65534);
  process.seteuid(65534);
}
const store = createFileStore({ root });
const say = (value) => writeSync(1, `${JSON.stringify(value)}\n`);

say({ ready: true });
for await (const line of createInterface({ input: process.stdin })) {
  const { id, op, args } = JSON.parse(line);
  try {
    const result = await store[op](...args);
    say({ id, ok: true, result: result ?? null });
  } catch (error) {
    say({
      id,
      ok: false,
      code: isTeamkitError(error) ? error.code : `RAW:${error?.code ?? error}`,
      message: String(error?.message ?? error),
    });
  }
}
