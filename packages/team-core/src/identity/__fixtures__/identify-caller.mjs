// Asks team-core who this process is, acting in the home given as argument; prints the
// caller, or the error code, as one JSON line.
import { identifyCaller } from '@teamkit/team-core';

try {
  const caller = await identifyCaller({ home: process.argv[2], env: process.env });
  process.stdout.write(`${JSON.stringify(caller)}\n`);
} catch (error) {
  process.stdout.write(`${JSON.stringify({ error: error.code ?? String(error) })}\n`);
}
