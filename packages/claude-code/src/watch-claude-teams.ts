import { type FSWatcher, watch } from 'node:fs';
import { claudeFolders, claudeTeamPaths } from './claude-paths.js';
import type { ClaudeTeamView } from './claude-team-view.js';
import { listClaudeTeamNames } from './list-claude-teams.js';
import { type ReadTeamContext, readClaudeTeam } from './read-claude-team.js';

/** A change seen by {@link watchClaudeTeams}. */
export type ClaudeTeamChange =
  | {
      /** The team appeared or something in it changed (members, tasks, inboxes, liveness). */
      readonly type: 'updated';
      readonly team: ClaudeTeamView;
    }
  | {
      /** The team's folder and task list are both gone. */
      readonly type: 'removed';
      readonly name: string;
    };

/** Options of {@link watchClaudeTeams}. */
export interface ClaudeTeamWatchOptions {
  /** Watch only this team; by default every team under the config folder. */
  team?: string;
  /** How long to gather file events before reading again. Default 50 ms. */
  debounceMs?: number;
  /**
   * How often teams are read again without an event, which heals events the file
   * watcher missed and notices a lead that died without touching a file. Default 2000 ms.
   */
  reconcileMs?: number;
  /** Called with errors of a read or of the listener; the watch goes on. */
  onError?: (error: unknown) => void;
}

/** A running watch; stop it with `close()`. */
export interface ClaudeTeamWatch {
  /** Resolves once the first read of every watched team has been reported. */
  readonly ready: Promise<void>;
  /** Stops watching: closes the file watchers and timers. Safe to call twice. */
  close(): void;
}

// What a folder's event maps to when it concerns no watched team.
const IGNORED = '';

// Teams that ended are read again only on every FULL_RECONCILE_EVERY-th tick (or when an
// event names them): nothing but Teamkit's refused writes would change them.
const FULL_RECONCILE_EVERY = 10;

/**
 * Watches Claude Code teams and reports each change once: every team when the watch
 * starts, then a team whenever a read shows it different. File events are gathered for
 * `debounceMs`; a periodic read heals missed events. Reads never overlap, and errors go
 * to `onError` instead of ending the watch. Each folder gets a plain `fs.watch`: the
 * bench's `tree-watch` figure finds chokidar on a folder slower and costlier per event.
 */
export function watchClaudeTeams(
  context: ReadTeamContext,
  listener: (change: ClaudeTeamChange) => void,
  options: ClaudeTeamWatchOptions = {},
): ClaudeTeamWatch {
  const single = options.team;
  if (single !== undefined) claudeTeamPaths(context.configDir, single);
  const debounceMs = options.debounceMs ?? 50;
  const reconcileMs = options.reconcileMs ?? 2_000;
  const onError = options.onError ?? (() => {});
  const folders = claudeFolders(context.configDir);

  const reported = new Map<string, { signature: string; finished: boolean; leadPid?: number }>();
  const dirtyTeams = new Set<string>();
  let listingDirty = true;
  let everythingDirty = true;
  let closed = false;
  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let ticks = 0;
  const watchers = new Map<string, FSWatcher>();

  const schedule = (delay = debounceMs) => {
    if (closed || timer !== undefined) return;
    timer = setTimeout(() => {
      timer = undefined;
      void refresh();
    }, delay);
  };

  const emit = (change: ClaudeTeamChange) => {
    try {
      listener(change);
    } catch (error) {
      onError(error);
    }
  };

  const watchFolder = (
    folder: string,
    teamOf: (file: string | null) => string | undefined,
    onAdded: () => void,
  ) => {
    if (closed || watchers.has(folder)) return;
    try {
      const watcher = watch(folder, (_event, file) => {
        const team = teamOf(file === null ? null : String(file));
        if (team === IGNORED) return;
        if (team === undefined) listingDirty = true;
        else dirtyTeams.add(team);
        schedule();
      });
      watcher.on('error', () => {
        // The folder went away (the team ended); the next read re-adds what exists.
        watcher.close();
        watchers.delete(folder);
        listingDirty = true;
        schedule();
      });
      watchers.set(folder, watcher);
      // What changed between the last read and this watcher would be missed: read it again.
      onAdded();
      schedule();
    } catch {
      // Not there yet: the next read tries again.
    }
  };

  const syncWatchers = () => {
    type Watched = { teamOf: (file: string | null) => string | undefined; onAdded: () => void };
    const wanted = new Map<string, Watched>();
    const byName = (file: string | null) =>
      file === null || file.includes('.deleted-') ? undefined : (single ?? file);
    const relist = () => {
      listingDirty = true;
    };
    wanted.set(context.configDir, { teamOf: () => undefined, onAdded: relist });
    wanted.set(folders.teams, { teamOf: byName, onAdded: relist });
    wanted.set(folders.tasks, { teamOf: byName, onAdded: relist });
    // A lead's session file (its Claude Code version) is written just after its team.
    wanted.set(folders.sessions, {
      teamOf: (file) => {
        const pid = file === null ? undefined : /^([0-9]+)\.json$/.exec(file)?.[1];
        for (const [name, entry] of reported) {
          if (pid !== undefined && entry.leadPid === Number(pid)) return name;
        }
        return IGNORED;
      },
      onAdded: () => {
        for (const [name, entry] of reported) if (!entry.finished) dirtyTeams.add(name);
      },
    });
    for (const [name, entry] of reported) {
      if (entry.finished) continue;
      const paths = claudeTeamPaths(context.configDir, name);
      const watched: Watched = { teamOf: () => name, onAdded: () => dirtyTeams.add(name) };
      wanted.set(paths.teamFolder, watched);
      wanted.set(paths.inboxesFolder, watched);
      wanted.set(paths.taskListFolder, watched);
    }
    for (const [folder, watcher] of watchers) {
      if (!wanted.has(folder)) {
        watcher.close();
        watchers.delete(folder);
      }
    }
    for (const [folder, { teamOf, onAdded }] of wanted) watchFolder(folder, teamOf, onAdded);
  };

  const readOne = async (name: string) => {
    const view = await readClaudeTeam(context, name);
    const known = reported.get(name);
    if (view === undefined) {
      if (known !== undefined) {
        reported.delete(name);
        emit({ type: 'removed', name });
      }
      return;
    }
    const finished = view.liveness.status === 'finished';
    // Like the listing, an ended team with nothing in it is not news, unless it was shown.
    if (
      known === undefined &&
      single === undefined &&
      finished &&
      !view.hasConfig &&
      view.tasks.length === 0
    ) {
      return;
    }
    const signature = JSON.stringify(view);
    if (known?.signature === signature) return;
    reported.set(name, {
      signature,
      finished,
      ...(view.liveness.leadPid === undefined ? {} : { leadPid: view.liveness.leadPid }),
    });
    emit({ type: 'updated', team: view });
  };

  const refresh = async () => {
    if (closed) return;
    if (running) {
      schedule();
      return;
    }
    running = true;
    try {
      const names = new Set<string>(dirtyTeams);
      dirtyTeams.clear();
      if (everythingDirty) for (const name of reported.keys()) names.add(name);
      if (listingDirty || everythingDirty) {
        listingDirty = false;
        const present =
          single === undefined ? await listClaudeTeamNames(context.configDir) : [single];
        for (const name of present) if (!reported.has(name) || everythingDirty) names.add(name);
        for (const name of reported.keys()) if (!present.includes(name)) names.add(name);
      }
      everythingDirty = false;
      for (const name of [...names].sort()) {
        if (closed) return;
        if (single !== undefined && name !== single) continue;
        try {
          await readOne(name);
        } catch (error) {
          onError(error);
        }
      }
      if (!closed) syncWatchers();
    } catch (error) {
      onError(error);
    } finally {
      running = false;
    }
  };

  const ready = refresh();
  const interval = setInterval(() => {
    ticks += 1;
    listingDirty = true;
    if (ticks % FULL_RECONCILE_EVERY === 0) everythingDirty = true;
    for (const [name, entry] of reported) if (!entry.finished) dirtyTeams.add(name);
    schedule(0);
  }, reconcileMs);

  return {
    ready,
    close() {
      if (closed) return;
      closed = true;
      clearInterval(interval);
      if (timer !== undefined) clearTimeout(timer);
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
    },
  };
}
