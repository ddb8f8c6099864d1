// Runs a `team` command line through `main` alone (the commander program), never the
// start-up fast path of bin.js: `node main-only.mjs <dist/main.js> <args…>`.
import { pathToFileURL } from 'node:url';

const [node, script, mainPath, ...args] = process.argv;
const { main } = await import(pathToFileURL(mainPath).href);
process.exitCode = await main([node, script, ...args]);
