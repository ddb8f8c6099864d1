#!/usr/bin/env node
// `team run status` is answered without building the whole command line (its start-up is
// timed); every other line goes to main.
const { runFastPath } = await import('./fast-path.js');
process.exitCode =
  (await runFastPath(process.argv)) ?? (await (await import('./main.js')).main(process.argv));
