import { appendFileSync } from 'node:fs';

/** One line of the server's log. */
export type ServerLog = (
  level: 'info' | 'warn' | 'error',
  message: string,
  data?: Record<string, unknown>,
) => void;

/**
 * The server's log: stderr (hosts keep a server's stderr in their own logs), and JSON lines
 * in `file` when given. Never stdout, which carries only the protocol. A log that cannot be
 * written is dropped rather than stopping a tool call.
 */
export function createServerLog(options: {
  stderr?: NodeJS.WritableStream;
  file?: string;
  now?: () => number;
}): ServerLog {
  const stderr = options.stderr ?? process.stderr;
  const now = options.now ?? Date.now;
  return (level, message, data) => {
    try {
      stderr.write(
        `teamkit-mcp ${level}: ${message}${data === undefined ? '' : ` ${JSON.stringify(data)}`}\n`,
      );
    } catch {
      // stderr closed: nothing to tell.
    }
    if (options.file !== undefined) {
      try {
        appendFileSync(
          options.file,
          `${JSON.stringify({ at: new Date(now()).toISOString(), level, message, ...data })}\n`,
        );
      } catch {
        // An unwritable log file must not fail the call it describes.
      }
    }
  };
}

/** What a host tells its server about the calling session: logged as evidence, never trusted. */
export function hostEvidence(
  env: NodeJS.ProcessEnv,
  meta: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const evidence: Record<string, unknown> = {};
  for (const name of ['CLAUDE_CODE_SESSION_ID', 'OPENCODE_PID', 'CODEX_THREAD_ID', 'GEMINI_CLI']) {
    const value = env[name];
    if (value !== undefined && value !== '') evidence[name] = value;
  }
  if (meta !== undefined) {
    for (const key of ['claudecode/toolUseId', 'threadId', 'sessionId']) {
      if (typeof meta[key] === 'string') evidence[`_meta.${key}`] = meta[key];
    }
  }
  return evidence;
}
