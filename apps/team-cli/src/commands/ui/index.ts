import { spawn } from 'node:child_process';
import { resolveRunId } from '../../command-context.js';
import type { CommandHandler } from '../../command-handler.js';
import { UsageError } from '../../exit-codes.js';

/**
 * `team ui [run] [--port N] [--open]`: serves the live web dashboard on 127.0.0.1, with
 * Teamkit's runs and Claude Code's own teams, and prints a sign-in URL with a one-time
 * token; Ctrl-C stops it.
 */
export const uiCommand: CommandHandler = async (context, [run], options) => {
  const port = options.port === undefined ? 0 : Number(options.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new UsageError('--port takes a port number from 0 to 65535 (0 picks a free one).');
  const runId = run === undefined ? undefined : await resolveRunId(context, run);
  const { startUiServer, createTeamkitRunSource, createClaudeRunSource } = await import(
    '@teamkit/ui'
  );
  const { stopRunAsUser } = await import('../../supervisor/stop-run.js');
  const onError = (error: unknown) => {
    if (context.env.TEAMKIT_UI_DEBUG) process.stderr.write(`team ui: ${String(error)}\n`);
  };
  const server = await startUiServer({
    // Claude Code's own teams are read from $CLAUDE_CONFIG_DIR (else ~/.claude), as `--claude` does.
    sources: [
      createTeamkitRunSource({ home: context.home, store: context.store }),
      createClaudeRunSource({ env: context.env, onError }),
    ],
    home: context.home,
    store: context.store,
    port,
    env: context.env,
    stopRun: stopRunAsUser,
    onError,
  });
  const url = server.loginUrl(runId === undefined ? '' : `#/run/teamkit/${runId}`);
  const { output } = context;
  output.result({ url, port: server.port }, () =>
    [
      `${output.style('green', 'Teamkit UI')} on ${server.origin}`,
      `  open: ${url}`,
      '  (the link works once; Ctrl-C stops the server)',
    ].join('\n'),
  );
  if (options.open === true) openBrowser(url);
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    await new Promise<void>((resolve) =>
      controller.signal.addEventListener('abort', () => resolve(), { once: true }),
    );
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await server.close();
  }
  return undefined;
};

/** Opens the URL in the desktop's browser, if there is one; failing quietly is fine. */
function openBrowser(url: string): void {
  const opener =
    process.platform === 'darwin'
      ? ['open', url]
      : process.platform === 'win32'
        ? ['cmd', '/c', 'start', '', url]
        : ['xdg-open', url];
  const [command = 'xdg-open', ...args] = opener;
  try {
    const child = spawn(command, args, { stdio: 'ignore', detached: true });
    child.on('error', () => {});
    child.unref();
  } catch {
    // No browser opener here: the printed URL is enough.
  }
}
