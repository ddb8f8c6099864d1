import { z } from 'zod';
import { mailboxOfRun } from '../mailbox/create-mailbox.js';
import type { Mailbox } from '../mailbox/index.js';
import { createRunContext, type RunContext } from '../run-context/index.js';
import { createMemberClient, type MemberClient } from '../runtime/member-client.js';
import type { MemberStatus, RunEvent, RunStatus, RuntimeState } from '../schema/index.js';
import { parseInput } from '../state/parse-input.js';
import {
  type MemberTransitionOptions,
  type RunStateMutation,
  readRunState,
  type TransitionOptions,
  transitionMember,
  transitionRun,
  updateRunState,
} from '../state/run-state-store.js';
import { type RunEventsRead, readRunEvents, readRunEventsAfter } from '../storage/event-log.js';
import type { LockOptions } from '../storage/file-lock.js';
import type { LogCursor, TeamkitStore } from '../storage/teamkit-store.js';
import { taskListOfRun } from '../tasklist/create-task-list.js';
import type { TaskList } from '../tasklist/index.js';

/** Where a run lives and the seams every part of its handle shares. */
export interface OpenRunOptions {
  /** The Teamkit home (the file store's root, and where per-machine paths hang off). */
  home: string;
  /** The run's id (a UUID; anything else is `PATH_TRAVERSAL`). */
  runId: string;
  /** Where state lives: the store the front door chose (file, memory, NATS); required. */
  store: TeamkitStore;
  /** The clock, in epoch ms; defaults to `Date.now`. */
  now?: () => number;
  /** Id generator for messages; defaults to `crypto.randomUUID`. */
  newId?: () => string;
  /** Lock tuning for the locks taken on the run's behalf. */
  lock?: LockOptions;
  /** Who acts through `state` and `events`, recorded in the event log; default `"teamkit"`. */
  actor?: string;
}

/** The run state as a handle sees it: read, change, and both status machines. */
export interface RunStateAccess {
  /** The state now (`RUN_NOT_FOUND`, `CORRUPT_DOCUMENT`). */
  read(): Promise<RuntimeState>;
  /** See `updateRunState`: compare-and-set, `mutate` may run more than once. */
  update(mutate: RunStateMutation): Promise<RuntimeState>;
  /** See `transitionRun`. */
  transition(to: RunStatus, options?: Pick<TransitionOptions, 'reason'>): Promise<RuntimeState>;
  /** See `transitionMember`. */
  transitionMember(
    member: string,
    to: MemberStatus,
    options?: Pick<MemberTransitionOptions, 'reason' | 'sessionId'>,
  ): Promise<RuntimeState>;
}

/** The run's event log. */
export interface RunEventsAccess {
  /** Appends one event as the handle's actor, stamped with the handle's clock. */
  append(type: string, ids?: readonly string[], data?: Record<string, unknown>): Promise<void>;
  /** Every readable event, oldest first; torn or invalid lines are counted in `skipped`. */
  read(): Promise<{ events: RunEvent[]; skipped: number }>;
  /** The events after `cursor` (all without one) and the cursor to continue from. */
  readAfter(cursor?: LogCursor): Promise<RunEventsRead>;
}

/**
 * One run with its seams bound once: keys, store, clock and lock tuning (what the mailbox
 * and task list work with), the mailbox, tasks, state, events and member clients.
 */
export interface RunHandle extends RunContext {
  readonly mailbox: Mailbox;
  readonly tasks: TaskList;
  readonly state: RunStateAccess;
  readonly events: RunEventsAccess;
  /** The client of member `name`, acting as that member (identity comes from its host). */
  member(name: string): MemberClient;
}

const OpenRunFieldsSchema = z.object({
  home: z.string(),
  runId: z.string(),
  actor: z.string().min(1).max(200).optional(),
});

/**
 * Opens run `runId` under `home`: every part shares one store, clock and lock tuning, so
 * callers stop passing `(home, runId, options)` to each function. Opening reads nothing;
 * a run that does not exist fails on first use (`RUN_NOT_FOUND`).
 */
export function openRun(options: OpenRunOptions): RunHandle {
  parseInput(OpenRunFieldsSchema, options, 'the run options');
  const run = createRunContext(options);
  const { home, runId, keys, store, now } = run;
  const actor = options.actor ?? 'teamkit';
  const lock = options.lock === undefined ? {} : { lock: options.lock };
  const stateOptions = { store, now, actor, ...lock };
  let mailbox: Mailbox | undefined;
  let tasks: TaskList | undefined;
  const handle: RunHandle = {
    home,
    runId,
    keys,
    store,
    now,
    lock: run.lock,
    readState: run.readState,
    writableState: run.writableState,
    logEvent: run.logEvent,
    get mailbox() {
      mailbox ??= mailboxOfRun(handle, options.newId);
      return mailbox;
    },
    get tasks() {
      tasks ??= taskListOfRun(handle);
      return tasks;
    },
    state: {
      read: () => readRunState(home, runId, stateOptions),
      update: (mutate) => updateRunState(home, runId, mutate, stateOptions),
      transition: (to, transition = {}) =>
        transitionRun(home, runId, to, { ...stateOptions, ...transition }),
      transitionMember: (member, to, transition = {}) =>
        transitionMember(home, runId, member, to, { ...stateOptions, ...transition }),
    },
    events: {
      append: (type, ids = [], data) => run.logEvent(actor, type, ids, data),
      read: () => readRunEvents(store, keys.events),
      readAfter: (cursor) => readRunEventsAfter(store, keys.events, cursor),
    },
    member: (name) =>
      createMemberClient({
        home,
        runId,
        store,
        now,
        ...lock,
        member: name,
        ...(options.newId === undefined ? {} : { newId: options.newId }),
      }),
  };
  return handle;
}
