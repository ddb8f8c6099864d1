import path from 'node:path';
import { TeamkitError } from '../errors/index.js';
import type { RunContext } from '../run-context/index.js';
import { type Task, TaskSchema } from '../schema/index.js';
import { withIoErrors } from '../state/io-error.js';
import {
  type DocumentProblem,
  type FileLock,
  parseDocument,
  toDocumentProblem,
} from '../storage/index.js';
import { byNumericId } from './task-ids.js';

// Every access of the task list to persisted state goes through this file. Single-task
// changes are read-change-write functions (`updateTask`), the shape of a compare-and-set
// update, so moving the task list onto another store changes this file and little else.

/** Tasks sorted by numeric id, plus unreadable task files left in place. */
export interface TaskListing {
  tasks: Task[];
  problems: DocumentProblem[];
}

/** What {@link TaskStorage.updateTask} does with the task it read. */
export interface TaskChange {
  /**
   * The next task, or `undefined` to write nothing. Gets `undefined` when the task does
   * not exist. May throw a typed error to refuse. Keep it a pure function of its input.
   */
  next(current: Task | undefined): Task | undefined | Promise<Task | undefined>;
  /** Runs after `next` was written over `previous`, before anyone else can change the task. */
  written?(next: Task, previous: Task | undefined): Promise<void>;
}

/** The run's tasks as the task list sees them: documents with ids, plus the id watermark. */
export interface TaskStorage {
  /** Where task `id` is stored, for reports. */
  whereIs(id: string): string;
  /** One task; `undefined` when absent; `CORRUPT_DOCUMENT` when unreadable or not task `id`. */
  readTask(id: string): Promise<Task | undefined>;
  /** Every task, with unreadable files reported as problems. */
  readAllTasks(): Promise<{ byId: Map<string, Task>; listing: TaskListing }>;
  /** The ids of every stored task (deleted tombstones and unreadable files too), by number. */
  listTaskIds(): Promise<string[]>;
  /** Creates a task that must not exist yet (`ALREADY_EXISTS`). */
  createTask(task: Task): Promise<void>;
  /** Reads a task, lets `change` decide the next one and writes it, with no writer in between. */
  updateTask(id: string, change: TaskChange): Promise<Task | undefined>;
  /** The highest id ever issued, as recorded (0 when unknown or unreadable). */
  readWatermark(): Promise<number>;
  /** Records `id` as the highest id issued, while holding the list lock. */
  writeWatermark(id: string, listLock: FileLock): Promise<void>;
  /** Runs `fn` holding the list lock, which orders id allocation and dependency edits. */
  withListLock<T>(fn: (listLock: FileLock) => Promise<T>): Promise<T>;
}

/** The {@link TaskStorage} of one run on the file store (`runtime/<runId>/tasks/`). */
export function createTaskStorage(run: RunContext): TaskStorage {
  const { paths, store } = run;
  const watermarkFile = path.join(paths.tasks, '.highwatermark');
  // withLock guards `<target>.lock`; a trailing separator makes that `tasks/.lock`.
  const listLockTarget = `${paths.tasks}${path.sep}`;

  // A task acted on under the wrong name would change another task's data: a file whose
  // id is not its name is corrupt.
  function parseTask(text: string, file: string, id: string): Task {
    const task = parseDocument(text, TaskSchema, file);
    if (task.id !== id) {
      throw new TeamkitError(
        'CORRUPT_DOCUMENT',
        `${file} holds task ${task.id}, not task ${id}; it was left in place. Move it back to ${task.id}.json or aside.`,
        { details: { path: file, taskId: id, documentTaskId: task.id } },
      );
    }
    return task;
  }

  const tasks: TaskStorage = {
    whereIs: (id) => paths.task(id),

    async readTask(id) {
      const file = paths.task(id);
      const text = await withIoErrors('read', file, () => store.readText(file));
      return text === undefined ? undefined : parseTask(text, file, id);
    },

    async readAllTasks() {
      const ids = await tasks.listTaskIds();
      return withIoErrors('read the tasks in', paths.tasks, async () => {
        const listing: TaskListing = { tasks: [], problems: [] };
        const byId = new Map<string, Task>();
        for (const id of ids) {
          const file = paths.task(id);
          const text = await store.readText(file);
          if (text === undefined) continue;
          try {
            const task = parseTask(text, file, id);
            listing.tasks.push(task);
            byId.set(task.id, task);
          } catch (error) {
            listing.problems.push(toDocumentProblem(error, file));
          }
        }
        return { byId, listing };
      });
    },

    async listTaskIds() {
      const names = await withIoErrors('list', paths.tasks, () => store.list(paths.tasks));
      return names
        .map((name) => /^([1-9][0-9]{0,15})\.json$/.exec(name)?.[1])
        .filter((id): id is string => id !== undefined)
        .sort(byNumericId);
    },

    createTask(task) {
      const file = paths.task(task.id);
      return withIoErrors('create', file, () => store.createDocument(file, TaskSchema, task));
    },

    updateTask(id, change) {
      const file = paths.task(id);
      return withIoErrors('change', file, () =>
        store.withLock(
          file,
          async (lock) => {
            const previous = await tasks.readTask(id);
            const next = await change.next(previous);
            if (next === undefined) return undefined;
            await store.writeDocument(file, TaskSchema, next, lock);
            await change.written?.(next, previous);
            return next;
          },
          run.lock,
        ),
      );
    },

    async readWatermark() {
      const text = await withIoErrors('read', watermarkFile, () => store.readText(watermarkFile));
      const trimmed = text?.trim();
      return trimmed !== undefined && /^[0-9]{1,16}$/.test(trimmed) ? Number(trimmed) : 0;
    },

    writeWatermark(id, listLock) {
      return withIoErrors('write', watermarkFile, () =>
        store.writeText(watermarkFile, `${id}\n`, listLock),
      );
    },

    withListLock(fn) {
      return withIoErrors('lock', paths.tasks, async () => {
        await store.ensureDir(paths.tasks);
        return store.withLock(listLockTarget, fn, run.lock);
      });
    },
  };
  return tasks;
}
