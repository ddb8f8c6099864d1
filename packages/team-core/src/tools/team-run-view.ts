import { type ArtifactListing, createRunArtifacts } from '../artifacts/index.js';
import { collectRunStatus, type RunStatusReport } from '../runtime/run-status.js';
import type { Artifact, Task } from '../schema/index.js';
import type { LockOptions, TeamkitStore } from '../storage/index.js';
import { createTaskList, type TaskFilter, type TaskListing } from '../tasklist/index.js';

/** What read-only tools read of a run; it writes nothing. */
export interface TeamRunView {
  readonly runId: string;
  /** Members, tasks by status, unread counts and recent events. */
  status(): Promise<RunStatusReport>;
  /** Tasks by filter, sorted by id, and the task files that could not be read. */
  listTasks(filter?: TaskFilter): Promise<TaskListing>;
  /** Pending, unowned tasks whose blockers are all done. */
  readyTasks(): Promise<Task[]>;
  getTask(id: string): Promise<Task>;
  /** A version of an artifact (the newest by default). */
  readArtifact(name: string, revision?: number): Promise<Artifact>;
  /** The run's artifacts with their newest versions. */
  listArtifacts(): Promise<ArtifactListing[]>;
}

/** Where a {@link TeamRunView} reads from. */
export interface TeamRunViewOptions {
  home: string;
  runId: string;
  /** Where the run's state lives (required: the front door chose it). */
  store: TeamkitStore;
  lock?: LockOptions;
}

/** A read-only view of one run, for callers with or without an identity. */
export function createTeamRunView(options: TeamRunViewOptions): TeamRunView {
  const seams = {
    home: options.home,
    runId: options.runId,
    store: options.store,
    ...(options.lock === undefined ? {} : { lock: options.lock }),
  };
  const tasks = createTaskList(seams);
  const artifacts = () =>
    createRunArtifacts({ home: options.home, runId: options.runId, store: options.store });
  return {
    runId: options.runId,
    status: () => collectRunStatus(seams),
    listTasks: (filter) => tasks.listTasks(filter),
    readyTasks: () => tasks.readyTasks(),
    getTask: (id) => tasks.getTask(id),
    readArtifact: (name, revision) => artifacts().read(name, revision),
    listArtifacts: () => artifacts().list(),
  };
}
