#!/usr/bin/env node
const { main } = await import('./main.js');
process.exitCode = await main(process.argv);
