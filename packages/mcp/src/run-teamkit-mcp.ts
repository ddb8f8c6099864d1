import { isTeamkitError } from '@teamkit/team-core';
import { errorMessage } from '@teamkit/team-core/errors';
import { createFileStore } from '@teamkit/team-core/storage';
import { serveTeamkitMcp } from './serve-teamkit-mcp.js';
import { serverHome } from './server-identity.js';
import { parseServerArguments, SERVER_HELP } from './server-options.js';

/** How long after its client went away a server may still be held open by unfinished work. */
const EXIT_AFTER_MS = 3_000;

/**
 * The `teamkit-mcp` program: parses its flags, serves until the client goes away, and
 * resolves with the exit code (0 after a clean end, 2 for bad flags or an identity that
 * contradicts itself, 1 otherwise). Anything printed by accident goes to stderr, never
 * to stdout, which carries only protocol.
 */
export async function runTeamkitMcp(argv: readonly string[]): Promise<number> {
  console.log = console.error;
  console.info = console.error;
  console.debug = console.error;
  try {
    const options = parseServerArguments(argv);
    if (options.help) {
      process.stderr.write(SERVER_HELP);
      return 0;
    }
    // The standalone server keeps the runs of its home in the home's folder: the file
    // store of the home its identity resolves to (`team mcp` passes the store it selected).
    const home = serverHome(options.home, options.env ?? process.env);
    await serveTeamkitMcp({ ...options, store: createFileStore({ root: home }) });
    // A lock heartbeat or a slow write must not keep a server whose client is gone.
    setTimeout(() => process.exit(process.exitCode ?? 0), EXIT_AFTER_MS).unref();
    return 0;
  } catch (error) {
    const code = isTeamkitError(error) ? error.code : 'INTERNAL';
    const message = errorMessage(error);
    process.stderr.write(`teamkit-mcp error ${code}: ${message}\n`);
    return isTeamkitError(error) && error.kind !== 'internal' ? 2 : 1;
  }
}
