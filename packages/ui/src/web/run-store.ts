import type {
  EventView,
  MemberView,
  MessageView,
  PermissionView,
  RunDelta,
  RunHeader,
  RunSnapshot,
  TaskView,
} from '../protocol.js';

/** What the page knows of one run; parts are replaced, never edited, so views can memoise. */
export interface RunModel {
  header: RunHeader;
  members: MemberView[];
  /** A new Map on every task change; unchanged tasks keep their objects. */
  tasks: Map<string, TaskView>;
  messages: MessageView[];
  events: EventView[];
  permissions: PermissionView[];
  problems: string[];
}

const HISTORY = 2_000;

/** The model of a fresh snapshot. */
export function modelOf(snapshot: RunSnapshot): RunModel {
  return {
    header: snapshot.header,
    members: snapshot.members,
    tasks: new Map(snapshot.tasks.map((task) => [task.id, task])),
    messages: snapshot.messages,
    events: snapshot.events,
    permissions: snapshot.permissions,
    problems: snapshot.problems,
  };
}

/** The model after a delta. */
export function applyDelta(model: RunModel, delta: RunDelta): RunModel {
  const next = { ...model };
  if (delta.header) next.header = delta.header;
  if (delta.members) next.members = delta.members;
  if (delta.permissions) next.permissions = delta.permissions;
  if (delta.problems) next.problems = delta.problems;
  if (delta.tasks) {
    const tasks = new Map(model.tasks);
    for (const id of delta.tasks.remove) tasks.delete(id);
    for (const task of delta.tasks.upsert) tasks.set(task.id, task);
    next.tasks = tasks;
  }
  if (delta.messages) {
    const byId = new Map(model.messages.map((message, index) => [message.id, index]));
    const messages = [...model.messages];
    for (const message of delta.messages) {
      const index = byId.get(message.id);
      if (index === undefined) messages.push(message);
      else messages[index] = message;
    }
    next.messages = messages.slice(-HISTORY);
  }
  if (delta.events) next.events = [...model.events, ...delta.events].slice(-HISTORY);
  return next;
}
