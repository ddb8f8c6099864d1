import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * This CLI's own program (`dist/bin.js`), which the MCP server runs for `create` and
 * `delete` (`team run start`, `team run stop`): the CLI hosts members, the server cannot.
 */
export const TEAM_CLI_BIN = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'bin.js',
);
