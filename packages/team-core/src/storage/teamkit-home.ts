import path from 'node:path';
import { TeamkitError } from '../errors/index.js';
import { isRunId } from '../schema/run-id-pattern.js';
import { assertSafeSegment, containedPath } from './contained-path.js';

export { expandHome, resolveTeamkitHome } from './home-folder.js';

/** The paths of one run's folder, every one contained in the Teamkit home. */
export interface RunPaths {
  home: string;
  runId: string;
  root: string;
  state: string;
  events: string;
  inboxes: string;
  tasks: string;
  logs: string;
  inbox(member: string): string;
  task(id: string): string;
  worktree(member: string): string;
}

/** Checks that `runId` is a UUID before it becomes part of a path. */
export function assertRunId(runId: string): string {
  if (!isRunId(runId)) {
    throw new TeamkitError(
      'PATH_TRAVERSAL',
      `Refused run id ${JSON.stringify(runId)}: run ids are UUIDs.`,
      {
        details: { runId },
      },
    );
  }
  return runId;
}

/** Builds the on-disk layout of one run under `home` (see docs/architecture.md). */
export function runPaths(home: string, runId: string): RunPaths {
  assertRunId(runId);
  const root = containedPath(home, 'runtime', runId);
  const inboxes = path.join(root, 'inboxes');
  const tasks = path.join(root, 'tasks');
  return {
    home: path.resolve(home),
    runId,
    root,
    state: path.join(root, 'state.json'),
    events: path.join(root, 'events.jsonl'),
    inboxes,
    tasks,
    logs: path.join(root, 'logs'),
    inbox: (member) => containedPath(inboxes, assertSafeSegment(member, 'member name')),
    task: (id) => {
      if (!/^[1-9][0-9]{0,15}$/.test(id)) {
        throw new TeamkitError(
          'PATH_TRAVERSAL',
          `Refused task id ${JSON.stringify(id)}: task ids are decimal numbers.`,
          {
            details: { taskId: id },
          },
        );
      }
      return path.join(tasks, `${id}.json`);
    },
    worktree: (member) =>
      containedPath(home, 'worktrees', runId, assertSafeSegment(member, 'member name')),
  };
}
