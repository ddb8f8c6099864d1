#!/usr/bin/env node
import { runTeamkitMcp } from './run-teamkit-mcp.js';

process.exitCode = await runTeamkitMcp(process.argv.slice(2));
