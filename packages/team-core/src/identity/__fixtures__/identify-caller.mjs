// Asks team-core who this process is, acting in the home given as argument; prints the
// caller, or the error code, as one JSON line.
import { identifyCaller } from '@teamkit/team-core';
import { createFileStore } from '@teamkit/team-core/storage';

try {
  const home = process.argv[2];
  const caller = await identifyCaller({
    home,
    env: process.env,
    store: createFileStore({ root: home }),
  });
  process.stdout.write(`${JSON.stringify(caller)}\n`);
} catch (error) {
  process.stdout.write(`${JSON.stringify({ error: error.code ?? String(error) })}\n`);
}
