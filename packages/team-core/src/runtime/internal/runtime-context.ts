import type { Mailbox } from '../../mailbox/index.js';
import { loadSettings, type SettingsValues } from '../../registry/index.js';
import { openRun, type RunHandle } from '../../run-handle/index.js';
import type { LockOptions } from '../../storage/file-lock.js';
import type { TeamkitStore } from '../../storage/teamkit-store.js';
import type { TaskList } from '../../tasklist/index.js';
import type { TmuxRunner } from '../../tmux/index.js';
import type { TeamHostV1 } from '../team-host.js';
import type { TeamToolVocabulary } from '../team-protocol.js';

/** The vocabulary of one member of a run, or `undefined` for the runtime's own. */
export type MemberVocabulary = (
  runId: string,
  member: { name: string; role: string; isLead: boolean },
) => TeamToolVocabulary | undefined | Promise<TeamToolVocabulary | undefined>;

/** The seams and settings every part of one runtime shares. */
export interface RuntimeContext {
  readonly home: string;
  readonly host: TeamHostV1;
  readonly store: TeamkitStore;
  readonly now: () => number;
  readonly lock: LockOptions;
  /** The options every state call takes: the seams, acting as `runtime`. */
  readonly stateOptions: {
    store: TeamkitStore;
    now: () => number;
    lock: LockOptions;
    actor: string;
  };
  readonly tmux: { runner: TmuxRunner; callerPaneId?: string } | undefined;
  readonly vocabulary: TeamToolVocabulary;
  readonly vocabularyFor: MemberVocabulary | undefined;
  readonly project: string | undefined;
  readonly env: NodeJS.ProcessEnv | undefined;
  /** Whether members that want a worktree get one (when a repository is given). */
  readonly worktrees: boolean;
  /** This runtime's machine, when the run is shared by several (see `RunMember.machine`). */
  readonly machine: string | undefined;
  /** Run `runId` on the runtime's store, acting as `runtime`. */
  run(runId: string): RunHandle;
  mailbox(runId: string): Mailbox;
  tasks(runId: string): TaskList;
  /** Appends one runtime event to the run's log. */
  event(runId: string, type: string, ids?: string[], data?: Record<string, unknown>): Promise<void>;
  /** Teamkit's settings as the config reads now, under the runtime's overrides. */
  settings(): Promise<SettingsValues>;
  /**
   * Moves a member between `running` and `idle` only if it is still in `from` under the
   * state's compare-and-set; a member that meanwhile stopped or errored is left alone. Returns whether it moved.
   */
  moveIfStill(
    runId: string,
    member: string,
    from: 'running' | 'idle',
    to: 'running' | 'idle',
  ): Promise<boolean>;
}

/** What {@link createRuntimeContext} is built from. */
export interface RuntimeContextInput {
  home: string;
  host: TeamHostV1;
  store: TeamkitStore;
  now: () => number;
  lock: LockOptions;
  tmux?: { runner: TmuxRunner; callerPaneId?: string };
  vocabulary: TeamToolVocabulary;
  vocabularyFor?: MemberVocabulary;
  project?: string;
  env?: NodeJS.ProcessEnv;
  worktrees: boolean;
  machine?: string;
  settings?: Partial<SettingsValues>;
}

/** The settings as the config reads now (global, then the project's), under `input.settings`. */
export async function loadRuntimeSettings(
  input: Pick<RuntimeContextInput, 'home' | 'project' | 'env' | 'settings'>,
): Promise<SettingsValues> {
  const loaded = await loadSettings({
    home: input.home,
    ...(input.project === undefined ? {} : { project: input.project }),
    ...(input.env === undefined ? {} : { env: input.env }),
  });
  return { ...loaded.values, ...input.settings };
}

/** Binds the seams once, so each part of the runtime takes one context. */
export function createRuntimeContext(input: RuntimeContextInput): RuntimeContext {
  const { home, store, now, lock } = input;
  const stateOptions = { store, now, lock, actor: 'runtime' };
  const run = (runId: string) => openRun({ home, runId, store, now, lock, actor: 'runtime' });
  return {
    home,
    host: input.host,
    store,
    now,
    lock,
    stateOptions,
    tmux: input.tmux,
    vocabulary: input.vocabulary,
    vocabularyFor: input.vocabularyFor,
    project: input.project,
    env: input.env,
    worktrees: input.worktrees,
    machine: input.machine,
    run,
    mailbox: (runId) => run(runId).mailbox,
    tasks: (runId) => run(runId).tasks,
    event: (runId, type, ids = [], data) => run(runId).events.append(type, ids, data),
    settings: () => loadRuntimeSettings(input),
    async moveIfStill(runId, member, from, to) {
      let moved = false;
      await run(runId).state.update((draft) => {
        // Decided anew on each round of the compare-and-set.
        moved = false;
        const target = draft.members.find((candidate) => candidate.name === member);
        if (target?.status === from) {
          target.status = to;
          target.lastSeenAt = now();
          moved = true;
        }
        return draft;
      });
      return moved;
    },
  };
}
