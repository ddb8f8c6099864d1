import { TeamkitError } from '../errors/index.js';
import { assertKeySegment } from './store-key.js';
import { assertRunId } from './teamkit-home.js';
import type { StoreKey } from './teamkit-store.js';

/**
 * The store keys of one run, relative to the Teamkit home (the file store's root), laid
 * out as docs/architecture.md shows. Every name from outside is checked before it
 * becomes part of a key. Per-machine files that are not state (worktrees, member logs,
 * prompt files handed to agent CLIs) keep their paths in {@link runPaths}.
 */
export interface RunKeys {
  runId: string;
  /** `runtime/<runId>`: the run's folder, removed whole at sweep. */
  root: StoreKey;
  /** The run state document. */
  state: StoreKey;
  /** The append-only event log. */
  events: StoreKey;
  /** The resolved team the run started with. */
  team: StoreKey;
  /** The record of every merge of the run's work (`team run merge`). */
  merges: StoreKey;
  /** The folder of every inbox. */
  inboxes: StoreKey;
  /** A member's inbox: a collection of messages. */
  inbox(member: string): StoreKey;
  /** Message-count slot `n` (the run's message budget): a marker. */
  sentSlot(n: number): StoreKey;
  /** The folder of the task documents. */
  tasks: StoreKey;
  /** Task `id`'s document. */
  task(id: string): StoreKey;
  /** The highest task id ever given out. */
  taskWatermark: StoreKey;
  /** The lock taken to give out task ids and edit dependencies (`tasks/.lock.lock` on disk). */
  taskListLock: StoreKey;
  /** A member's presence document (a `team inbox --wait` waiting). */
  presence(member: string): StoreKey;
  /** A member's handoff collection (messages handed to a waiting `team inbox --wait`). */
  handoffs(member: string): StoreKey;
}

const memberSegment = (member: string) => assertKeySegment(member, 'member name');

/** Builds the keys of run `runId` (a UUID, else `PATH_TRAVERSAL`). */
export function runKeys(runId: string): RunKeys {
  assertRunId(runId);
  const root = `runtime/${runId}`;
  const inboxes = `${root}/inboxes`;
  const tasks = `${root}/tasks`;
  return {
    runId,
    root,
    state: `${root}/state.json`,
    events: `${root}/events.jsonl`,
    team: `${root}/team.json`,
    merges: `${root}/merges.json`,
    inboxes,
    inbox: (member) => `${inboxes}/${memberSegment(member)}`,
    sentSlot: (n) => {
      if (!Number.isSafeInteger(n) || n < 1) {
        throw new TeamkitError('INVALID_INPUT', `Message slot ${n} is not a positive integer.`, {
          details: { slot: n },
        });
      }
      return `${inboxes}/.sent/${n}`;
    },
    tasks,
    task: (id) => {
      if (!/^[1-9][0-9]{0,15}$/.test(id)) {
        throw new TeamkitError(
          'PATH_TRAVERSAL',
          `Refused task id ${JSON.stringify(id)}: task ids are decimal numbers.`,
          { details: { taskId: id } },
        );
      }
      return `${tasks}/${id}.json`;
    },
    taskWatermark: `${tasks}/.highwatermark`,
    taskListLock: `${tasks}/.lock`,
    presence: (member) => `${root}/presence/${memberSegment(member)}.json`,
    handoffs: (member) => `${root}/handoff/${memberSegment(member)}`,
  };
}
