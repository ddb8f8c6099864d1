import { existsSync } from 'node:fs';
import path from 'node:path';
import { type FSWatcher, watch } from 'chokidar';
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
 * to `onError` instead of ending the watch.
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
  // One chokidar watcher for every folder watched (each without recursion); `watched`
  // holds the folders added to it and what an event in each dirties when it is added.
  let watcher: FSWatcher | undefined;
  const watched = new Set<string>();
  const { teams, tasks, sessions } = folders;
  const relevantTop = new Set(['teams', 'tasks', 'sessions']);

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

  /** The team an event at `file` concerns; `undefined` for the listing; `IGNORED` for none. */
  const teamOf = (file: string): string | undefined => {
    const [top, name] = path.relative(context.configDir, file).split(path.sep);
    if (top === 'sessions') {
      // A lead's session file (its Claude Code version) is written just after its team.
      const pid = name === undefined ? undefined : /^([0-9]+)\.json$/.exec(name)?.[1];
      for (const [team, entry] of reported) {
        if (pid !== undefined && entry.leadPid === Number(pid)) return team;
      }
      return IGNORED;
    }
    if ((top !== 'teams' && top !== 'tasks') || name === undefined) return undefined;
    if (name.includes('.deleted-')) return undefined;
    if (single !== undefined) return name === single ? single : IGNORED;
    return name;
  };

  const onEvent = (event: string, file: string) => {
    if (closed) return;
    if (event === 'unlinkDir' && file === context.configDir) {
      // The config folder itself went away: start over once it is back.
      void watcher?.close();
      watcher = undefined;
      watched.clear();
    }
    const team = teamOf(file);
    if (team === IGNORED) return;
    if (team === undefined) listingDirty = true;
    else dirtyTeams.add(team);
    schedule();
  };

  const openWatcher = (): FSWatcher => {
    const opened = watch([], {
      ignoreInitial: true,
      persistent: true,
      // Every folder is watched on its own: no recursion into what it holds.
      depth: 0,
      atomic: false,
      ignored: (file, stats) => {
        const relative = path.relative(context.configDir, file);
        if (relative === '') return false;
        // Of the config folder, only what Claude Code keeps its teams in.
        if (!relative.includes(path.sep)) return !relevantTop.has(relative);
        // Lock folders come and go with every task write; the task files say what changed.
        return stats?.isDirectory() === true && file.endsWith('.lock');
      },
    });
    opened.on('all', onEvent);
    // Without this listener an 'error' event would end the process.
    opened.on('error', (error) => onError(error));
    return opened;
  };

  const syncWatchers = () => {
    const wanted = new Map<string, () => void>();
    const relist = () => {
      listingDirty = true;
    };
    wanted.set(context.configDir, relist);
    wanted.set(teams, relist);
    wanted.set(tasks, relist);
    wanted.set(sessions, () => {
      for (const [name, entry] of reported) if (!entry.finished) dirtyTeams.add(name);
    });
    for (const [name, entry] of reported) {
      if (entry.finished) continue;
      const paths = claudeTeamPaths(context.configDir, name);
      const dirty = () => dirtyTeams.add(name);
      wanted.set(paths.teamFolder, dirty);
      wanted.set(paths.inboxesFolder, dirty);
      wanted.set(paths.taskListFolder, dirty);
    }
    const gone = [...watched].filter((folder) => !wanted.has(folder) || !existsSync(folder));
    for (const folder of gone) watched.delete(folder);
    if (gone.length > 0) watcher?.unwatch(gone);
    const added: string[] = [];
    for (const [folder, onAdded] of wanted) {
      if (watched.has(folder) || !existsSync(folder)) continue;
      watched.add(folder);
      added.push(folder);
      // What changed between the last read and this watch would be missed: read it again.
      onAdded();
    }
    if (added.length === 0) return;
    watcher ??= openWatcher();
    watcher.add(added);
    schedule();
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
      watched.clear();
      void watcher?.close();
      watcher = undefined;
    },
  };
}
