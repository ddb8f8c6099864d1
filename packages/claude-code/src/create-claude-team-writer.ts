import type { ClaudeLockOptions } from './claude-lock.js';
import {
  type CreateClaudeTaskInput,
  type CreateClaudeTaskResult,
  createClaudeTask,
} from './create-claude-task.js';
import { type ClaudeCodeOptions, createReadContext } from './create-claude-team-source.js';
import {
  type SendClaudeMessageInput,
  type SendClaudeMessageResult,
  sendClaudeMessage,
} from './send-claude-message.js';

/** Options of {@link createClaudeTeamWriter}. */
export interface ClaudeTeamWriterOptions extends ClaudeCodeOptions {
  /** How long a write waits for Claude Code's lock. Default 15 000 ms. */
  lockTimeoutMs?: number;
}

/**
 * The only writes Teamkit makes into Claude Code's teams: a message to a member or the
 * lead, and a new task. Deleting tasks, editing the team config and starting teammates
 * are Claude Code's alone and are not offered.
 */
export interface ClaudeTeamWriter {
  readonly configDir: string;
  /** See {@link sendClaudeMessage}. */
  sendMessage(input: SendClaudeMessageInput): Promise<SendClaudeMessageResult>;
  /** See {@link createClaudeTask}. */
  createTask(input: CreateClaudeTaskInput): Promise<CreateClaudeTaskResult>;
}

/** Creates the writer for the Claude Code teams of one config folder. */
export function createClaudeTeamWriter(options: ClaudeTeamWriterOptions = {}): ClaudeTeamWriter {
  const context = createReadContext(options);
  const lock: ClaudeLockOptions =
    options.lockTimeoutMs === undefined ? {} : { timeoutMs: options.lockTimeoutMs };
  return {
    configDir: context.configDir,
    sendMessage: (input) => sendClaudeMessage(context, input, lock),
    createTask: (input) => createClaudeTask(context, input, lock),
  };
}
