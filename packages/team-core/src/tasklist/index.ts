export type {
  CreateTaskInput,
  StatusChangeOptions,
  TaskDetailsPatch,
  TaskFilter,
  TaskList,
  TaskListing,
  TaskListOptions,
} from './create-task-list.js';
export { createTaskList } from './create-task-list.js';
export {
  assertTaskTransition,
  canTaskTransition,
  DONE_TASK_STATUSES,
  TASK_STATUS_TRANSITIONS,
} from './task-status-machine.js';
