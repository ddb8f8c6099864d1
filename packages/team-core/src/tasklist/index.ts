export type { CreateTaskInput } from './create-task.js';
export type { TaskList, TaskListOptions } from './create-task-list.js';
export { createTaskList } from './create-task-list.js';
export type { TaskFilter } from './read-tasks.js';
export type { TaskDetailsPatch } from './task-details.js';
export type { StatusChangeOptions } from './task-moves.js';
export {
  assertTaskTransition,
  canTaskTransition,
  DONE_TASK_STATUSES,
  TASK_STATUS_TRANSITIONS,
} from './task-status-machine.js';
export type { TaskListing } from './task-storage.js';
