import type { Task } from '../schema/index.js';

/** A copy of plain JSON data (what a validated document is), sharing nothing with it. */
function copyJson<T>(value: T): T {
  if (Array.isArray(value)) return value.map(copyJson) as T;
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(value)) copy[name] = copyJson(field);
  return copy as T;
}

/**
 * The last text each task id validated from, with the task it gave. Validation is a pure
 * function of the text, and it is most of what reading a task costs, so a read that
 * finds the very same text again takes a copy of that task instead of validating it a
 * second time. Any other text (a change, a corruption) is validated as usual.
 */
export interface ValidatedTasks {
  /** The task `text` validates to, by `validate` unless the same text validated before. */
  parse(id: string, text: string, validate: (text: string) => Task): Task;
  /** Forgets every id not in `ids` (tasks that are gone). */
  keepOnly(ids: readonly string[]): void;
}

/** An empty {@link ValidatedTasks}. Callers get copies: the kept tasks never leave it. */
export function createValidatedTasks(): ValidatedTasks {
  const known = new Map<string, { text: string; task: Task }>();
  return {
    parse(id, text, validate) {
      const last = known.get(id);
      if (last !== undefined && last.text === text) return copyJson(last.task);
      const task = validate(text);
      known.set(id, { text, task: copyJson(task) });
      return task;
    },
    keepOnly(ids) {
      if (known.size <= ids.length) return;
      const kept = new Set(ids);
      for (const id of known.keys()) if (!kept.has(id)) known.delete(id);
    },
  };
}
