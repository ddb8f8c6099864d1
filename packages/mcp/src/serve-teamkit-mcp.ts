import { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
import { createTeamkitMcpServer } from './create-teamkit-mcp-server.js';
import { createServerLog, type ServerLog } from './server-log.js';
import type { TeamkitMcpServerOptions } from './server-options.js';

/** Streams a stdio server reads and writes; the process's own by default. */
export interface StdioStreams {
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream;
}

/**
 * Serves the team's tools over stdio until the client goes away (stdin ends or closes) or
 * the process is told to stop (SIGTERM, SIGINT); then ends every wait in flight, closes the
 * connection and resolves. Nothing but protocol is written to stdout; the log goes to stderr.
 */
export async function serveTeamkitMcp(
  options: TeamkitMcpServerOptions & StdioStreams & { log?: ServerLog },
): Promise<void> {
  const log =
    options.log ??
    createServerLog({
      ...(options.stderr === undefined ? {} : { stderr: options.stderr }),
      ...(options.logFile === undefined ? {} : { file: options.logFile }),
    });
  const server = await createTeamkitMcpServer({ ...options, log });
  const stdin = (options.stdin ?? process.stdin) as NodeJS.ReadableStream & {
    once(event: string, listener: () => void): unknown;
  };
  const transport = new StdioServerTransport(
    stdin as never,
    (options.stdout ?? process.stdout) as never,
  );
  const handle = serveStdio(() => server.createServer(), {
    transport,
    onerror: (error) => log('warn', `protocol: ${error.message}`),
  });
  await new Promise<void>((resolve) => {
    let ended = false;
    const end = (why: string) => {
      if (ended) return;
      ended = true;
      log('info', `stopping: ${why}`);
      server.abortCalls();
      process.off('SIGTERM', onTerm);
      process.off('SIGINT', onInt);
      void handle
        .close()
        .catch(() => undefined)
        .finally(resolve);
    };
    const onTerm = () => end('SIGTERM');
    const onInt = () => end('SIGINT');
    stdin.once('end', () => end('the client closed stdin'));
    stdin.once('close', () => end('the client closed stdin'));
    process.once('SIGTERM', onTerm);
    process.once('SIGINT', onInt);
  });
}
