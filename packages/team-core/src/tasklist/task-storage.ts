import { TeamkitError } from '../errors/index.js';
import type { RunContext } from '../run-context/index.js';
import { type Task, TaskSchema } from '../schema/index.js';
import { type DocumentProblem, parseDocument, toDocumentProblem } from '../storage/document.js';
import { createDocument, updateDocument } from '../storage/store-documents.js';
import type { HeldLock } from '../storage/teamkit-store.js';
import { stopHereForTest } from '../storage/test-stop-point.js';
import { byNumericId } from './task-ids.js';
import { createValidatedTasks } from './validated-tasks.js';

// Every access of the task list to persisted state goes through this file. A task is
// changed by compare-and-set at the revision read (`updateTask`), with no task lock: a
// writer that stalls after its read can never overwrite a newer task.

/** Tasks sorted by numeric id, plus unreadable task files left in place. */
export interface TaskListing {
  tasks: Task[];
  problems: DocumentProblem[];
}

/** What {@link TaskStorage.updateTask} does with the task it read. */
export interface TaskChange {
  /**
   * The next task, or `undefined` to write nothing. Gets `undefined` when the task does
   * not exist. May throw a typed error to refuse. It may run more than once (when another
   * writer changed the task in between), so keep it a pure function of its input.
   */
  next(current: Task | undefined): Task | undefined | Promise<Task | undefined>;
  /**
   * Runs once, after `next` was written over `previous`. `next.sequence` orders this
   * change among the task's changes (log it with the change's event).
   */
  written?(next: Task, previous: Task | undefined): Promise<void>;
}

/** The run's tasks as the task list sees them: documents with ids, plus the id watermark. */
export interface TaskStorage {
  /** Where task `id` is stored (its key), for reports. */
  whereIs(id: string): string;
  /** One task; `undefined` when absent; `CORRUPT_DOCUMENT` when unreadable or not task `id`. */
  readTask(id: string): Promise<Task | undefined>;
  /**
   * Every task, with unreadable documents reported as problems, and the ids listed (an id
   * whose document was unreadable or gone by the read is in `ids` but not in `byId`).
   */
  readAllTasks(): Promise<{ byId: Map<string, Task>; listing: TaskListing; ids: string[] }>;
  /** The ids of every stored task (deleted tombstones and unreadable documents too), by number. */
  listTaskIds(): Promise<string[]>;
  /** Creates a task that must not exist yet (`ALREADY_EXISTS`). */
  createTask(task: Task): Promise<void>;
  /**
   * Reads a task, lets `change` decide the next one and writes it by compare-and-set at
   * the revision read, asking `change` again when another writer won in between. Each
   * write increments the task's `sequence`.
   */
  updateTask(id: string, change: TaskChange): Promise<Task | undefined>;
  /** The highest id ever issued, as recorded (0 when unknown or unreadable). */
  readWatermark(): Promise<number>;
  /** Records `id` as the highest id issued, while holding the list lock. */
  writeWatermark(id: string, listLock: HeldLock): Promise<void>;
  /** Runs `fn` holding the list lock, which orders id allocation and dependency edits. */
  withListLock<T>(fn: (listLock: HeldLock) => Promise<T>): Promise<T>;
}

/** The point where a task writer has read and not yet written; see `stopHereForTest`. */
export const TASK_COMMIT_STOP_POINT = 'task-commit';

/** The {@link TaskStorage} of one run (`runtime/<runId>/tasks/`). */
export function createTaskStorage(run: RunContext): TaskStorage {
  const { keys, store } = run;

  function notTask(key: string, id: string, documentId: string): TeamkitError {
    return new TeamkitError(
      'CORRUPT_DOCUMENT',
      `${key} holds task ${documentId}, not task ${id}; it was left in place. Move it back to ${documentId}.json or aside.`,
      { details: { path: key, taskId: id, documentTaskId: documentId } },
    );
  }

  // A task acted on under the wrong name would change another task's data: a document
  // whose id is not its name is corrupt.
  function validateTask(text: string, key: string, id: string): Task {
    const task = parseDocument(text, TaskSchema, key);
    if (task.id !== id) throw notTask(key, id, task.id);
    return task;
  }
  const validated = createValidatedTasks();
  const parseTask = (text: string, key: string, id: string): Task =>
    validated.parse(id, text, () => validateTask(text, key, id));

  const tasks: TaskStorage = {
    whereIs: (id) => keys.task(id),

    async readTask(id) {
      const key = keys.task(id);
      const stored = await store.read(key);
      return stored === undefined ? undefined : parseTask(stored.text, key, id);
    },

    async readAllTasks() {
      const ids = await tasks.listTaskIds();
      const listing: TaskListing = { tasks: [], problems: [] };
      const byId = new Map<string, Task>();
      const taskKeys = ids.map((id) => keys.task(id));
      const outcomes = await store.readMany(taskKeys);
      validated.keepOnly(ids);
      outcomes.forEach((outcome, index) => {
        const id = ids[index] as string;
        const key = taskKeys[index] as string;
        try {
          if ('error' in outcome) throw outcome.error;
          if (outcome.value === undefined) return;
          const task = parseTask(outcome.value.text, key, id);
          listing.tasks.push(task);
          byId.set(task.id, task);
        } catch (error) {
          listing.problems.push(toDocumentProblem(error, key));
        }
      });
      return { byId, listing, ids };
    },

    async listTaskIds() {
      const names = await store.list(keys.tasks);
      return names
        .map((name) => /^([1-9][0-9]{0,15})\.json$/.exec(name)?.[1])
        .filter((id): id is string => id !== undefined)
        .sort(byNumericId);
    },

    async createTask(task) {
      await createDocument(store, keys.task(task.id), TaskSchema, task);
    },

    async updateTask(id, change) {
      const key = keys.task(id);
      const updated = await updateDocument(
        store,
        key,
        TaskSchema,
        async (current) => {
          if (current.id !== id) throw notTask(key, id, current.id);
          const next = await change.next(current);
          if (next === undefined) return undefined;
          return { ...next, sequence: (current.sequence ?? 0) + 1 };
        },
        { beforeCommit: () => stopHereForTest(TASK_COMMIT_STOP_POINT) },
      ).catch((error: unknown) => {
        // Absent, or removed between the read and the write.
        if (error instanceof TeamkitError && error.code === 'DOCUMENT_NOT_FOUND') {
          return undefined;
        }
        throw error;
      });
      if (updated === undefined) return change.next(undefined) as Promise<undefined>;
      if (!updated.changed) return undefined;
      await change.written?.(updated.value, updated.previous);
      return updated.value;
    },

    async readWatermark() {
      let text: string | undefined;
      try {
        text = (await store.read(keys.taskWatermark))?.text;
      } catch (error) {
        // A corrupt watermark is rebuilt from the stored tasks (see nextTaskId).
        if (error instanceof TeamkitError && error.code === 'CORRUPT_DOCUMENT') return 0;
        throw error;
      }
      const trimmed = text?.trim();
      return trimmed !== undefined && /^[0-9]{1,16}$/.test(trimmed) ? Number(trimmed) : 0;
    },

    async writeWatermark(id, listLock) {
      listLock.assertHeld();
      await store.put(keys.taskWatermark, `${id}\n`);
    },

    withListLock(fn) {
      return store.withLock(keys.taskListLock, fn, run.lock);
    },
  };
  return tasks;
}
