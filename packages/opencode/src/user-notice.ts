import { errorMessage } from '@teamkit/team-core/errors';
import type { PluginLog } from './opencode-client.js';

/** Where a notice's line goes besides OpenCode's log; tests hand in a recorder. */
export type NoticeWriter = (line: string) => void;

/** Writes to the terminal OpenCode runs in, the one place a user sees before reading logs. */
export const writeToStderr: NoticeWriter = (line) => {
  try {
    process.stderr.write(`${line}\n`);
  } catch {
    // A closed stderr must never break the host.
  }
};

/**
 * Tells the user, in one line on stderr and one error entry in OpenCode's log, that part
 * of the plugin did not load and what to do about it. OpenCode drops a plugin that fails
 * to load without a word, so these lines are the only trace the user gets.
 */
export function noticeLoadFailure(
  log: PluginLog | undefined,
  write: NoticeWriter,
  what: string,
  error: unknown,
  fix: string,
): string {
  const cause = errorMessage(error);
  // One line: a cause may carry a stack or a multi-line import error.
  const oneLine = `${what}: ${cause.split('\n')[0]?.trim() ?? ''}. ${fix}`;
  write(`teamkit: ${oneLine}`);
  log?.('error', oneLine);
  return oneLine;
}
