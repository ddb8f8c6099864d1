import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { TeamkitError } from '@teamkit/team-core';
import { createFileExclusively } from './atomic-file.js';
import { type ClaudeLockOptions, withClaudeLock } from './claude-lock.js';
import { taskFileOf } from './claude-paths.js';
import type { ClaudeTask, ClaudeWarning } from './claude-team-view.js';
import { parseTask } from './parse-task.js';
import { isPlainObject } from './plain-object.js';
import { type ReadTeamContext, readHighWatermark, taskIdOfFileName } from './read-claude-team.js';
import { readJsonWithRetry } from './read-json-with-retry.js';
import { requireWritableTeam } from './writable-team.js';

/** What {@link createClaudeTask} creates: a pending, unowned task without dependencies. */
export interface CreateClaudeTaskInput {
  /** The team's folder name. */
  team: string;
  /** A short title, as in Claude Code's `TaskCreate`. */
  subject: string;
  /** What done means. Default empty. */
  description?: string;
  /** The present-continuous form Claude Code shows while the task runs ("Writing the README"). */
  activeForm?: string;
  /** Free-form JSON data kept with the task. */
  metadata?: Record<string, unknown>;
}

/** What {@link createClaudeTask} did. */
export interface CreateClaudeTaskResult {
  readonly team: string;
  readonly id: string;
  readonly task: ClaudeTask;
  /** The task file written. */
  readonly file: string;
  readonly warnings: readonly ClaudeWarning[];
}

// Claude Code gives up after this many taken ids too; a lockless writer is the only cause.
const MAX_ID_ATTEMPTS = 16;

function checkInput(input: CreateClaudeTaskInput): Omit<ClaudeTask, 'id'> {
  const text = (value: unknown, field: string, max: number, required: boolean) => {
    if (value === undefined && !required) return undefined;
    if (typeof value !== 'string' || (required && value.trim() === '') || value.length > max) {
      throw new TeamkitError(
        'INVALID_INPUT',
        `The task's ${field} must be ${required ? 'a non-empty' : 'a'} string of at most ${max} characters.`,
        { details: { field } },
      );
    }
    return value;
  };
  const subject = text(input.subject, 'subject', 500, true) as string;
  const description = text(input.description, 'description', 20_000, false) ?? '';
  const activeForm = text(input.activeForm, 'activeForm', 500, false);
  if (input.metadata !== undefined) {
    let size = Number.POSITIVE_INFINITY;
    try {
      size = isPlainObject(input.metadata) ? JSON.stringify(input.metadata).length : size;
    } catch {
      // not serialisable: refused below
    }
    if (size > 16_000) {
      throw new TeamkitError(
        'INVALID_INPUT',
        "The task's metadata must be a JSON object of at most 16 000 characters.",
        { details: { field: 'metadata' } },
      );
    }
  }
  return {
    subject,
    description,
    ...(activeForm === undefined ? {} : { activeForm }),
    status: 'pending',
    blocks: [],
    blockedBy: [],
    ...(input.metadata === undefined ? {} : { metadata: input.metadata }),
  };
}

/**
 * Creates a task in a live Claude Code team's list, the way Claude Code allocates ids:
 * under proper-lockfile's lock on `tasks/<team>/.lock` (folder `.lock.lock`), the next id
 * after `.highwatermark` and every task file. The file carries every field Claude Code's
 * schema requires (it drops a task without `description`, `blocks` or `blockedBy`), is
 * created without ever replacing a file, and is read back before the lock is released.
 */
export async function createClaudeTask(
  context: ReadTeamContext,
  input: CreateClaudeTaskInput,
  lockOptions: ClaudeLockOptions = {},
): Promise<CreateClaudeTaskResult> {
  const fields = checkInput(input);
  const team = await requireWritableTeam(context, input.team);
  const { paths } = team;
  const warnings = [...team.warnings];
  // Claude Code makes the task list when the team starts; make it as it does if missing.
  await mkdir(paths.taskListFolder, { recursive: true });
  await writeFile(paths.taskListLock, '', { flag: 'wx' }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });

  return withClaudeLock(
    paths.taskListLock,
    `${paths.taskListLock}.lock`,
    async (lock) => {
      let highest = 0;
      for (const name of await readdir(paths.taskListFolder)) {
        highest = Math.max(highest, taskIdOfFileName(name) ?? 0);
      }
      const watermark = await readHighWatermark(paths.highWatermark, context.retry);
      if (watermark === undefined) {
        warnings.push({
          code: 'HIGH_WATERMARK_UNREADABLE',
          message: `${paths.highWatermark} is not a number; the id was taken after the highest task file, as Claude Code does, and may repeat the id of a deleted task.`,
        });
      }
      let id = Math.max(highest, watermark ?? 0) + 1;
      for (let attempt = 1; ; attempt += 1) {
        const task: ClaudeTask = { id: String(id), ...fields };
        const file = taskFileOf(paths, task.id);
        const order = {
          id: task.id,
          subject: task.subject,
          description: task.description,
          ...(task.activeForm === undefined ? {} : { activeForm: task.activeForm }),
          status: task.status,
          blocks: task.blocks,
          blockedBy: task.blockedBy,
          ...(task.metadata === undefined ? {} : { metadata: task.metadata }),
        };
        if (
          await createFileExclusively(file, JSON.stringify(order, null, 2), () => lock.assertHeld())
        ) {
          const back = await readJsonWithRetry(file, context.retry);
          const parsed = back.kind === 'ok' ? parseTask(back.value) : undefined;
          if (
            parsed?.ok !== true ||
            parsed.task.id !== task.id ||
            parsed.task.subject !== task.subject
          ) {
            throw new TeamkitError(
              'WRITE_NOT_VERIFIED',
              `Task ${task.id} was written to ${file} but does not read back as written; another program may have replaced it.`,
              { details: { file, id: task.id } },
            );
          }
          return { team: input.team, id: task.id, task: parsed.task, file, warnings };
        }
        if (attempt >= MAX_ID_ATTEMPTS) {
          throw new TeamkitError(
            'LOCK_COMPROMISED',
            `Task ids ${id - attempt + 1} to ${id} were all taken while the task list was locked; another program writes tasks without the lock. Nothing was written.`,
            { details: { folder: paths.taskListFolder } },
          );
        }
        id += 1;
      }
    },
    lockOptions,
  );
}
