import type { Task } from '../schema/index.js';
import { byNumericId } from '../tasklist/task-ids.js';

/**
 * Orders tasks so every task comes after the tasks among them that block it (a
 * topological order of `blockedBy`), ties broken by id; blockers outside the list are
 * ignored. Task dependencies never form a cycle (the task list refuses one), but a
 * hand-edited list that does is still ordered: the rest of a cycle follows by id.
 */
export function orderByDependencies(tasks: readonly Task[]): Task[] {
  const byId = new Map(tasks.map((task) => [task.id, task]));
  const ordered: Task[] = [];
  const placed = new Set<string>();
  const visiting = new Set<string>();
  const place = (task: Task) => {
    if (placed.has(task.id) || visiting.has(task.id)) return;
    visiting.add(task.id);
    for (const id of [...task.blockedBy].sort(byNumericId)) {
      const blocker = byId.get(id);
      if (blocker !== undefined) place(blocker);
    }
    visiting.delete(task.id);
    placed.add(task.id);
    ordered.push(task);
  };
  for (const task of [...tasks].sort((a, b) => byNumericId(a.id, b.id))) place(task);
  return ordered;
}
