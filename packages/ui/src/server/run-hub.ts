import { type LiveRun, openLiveRun } from './live-run.js';
import { type AnyRunSource, isLiveRunSource } from './live-run-source.js';

/** Options for {@link createRunHub}. */
export interface RunHubOptions {
  sources: readonly AnyRunSource[];
  /** How long a live run with no page open is kept before its watcher closes; default 10 s. */
  idleCloseMs?: number;
  reconcileMs?: number;
  onError?: (error: unknown) => void;
}

/** The live runs pages are looking at: one watcher per run, shared by every page. */
export interface RunHub {
  source(id: string): AnyRunSource | undefined;
  /** The live view of a run, opened on first use. */
  live(sourceId: string, runId: string): Promise<LiveRun>;
  /** Marks a page gone; the run closes when no page watched it for `afterMs` (default `idleCloseMs`). */
  release(sourceId: string, runId: string, live: LiveRun, afterMs?: number): void;
  /**
   * Starts reading a run a page is about to open (its sign-in link was just made), so the
   * first read overlaps the page's loading; kept for `holdMs` (default 60 s) if no page comes.
   */
  prewarm(sourceId: string, runId: string, holdMs?: number): void;
  close(): Promise<void>;
}

/** Creates the hub of one server. */
export function createRunHub(options: RunHubOptions): RunHub {
  const opened = new Map<string, Promise<LiveRun>>();
  const idleTimers = new Map<string, NodeJS.Timeout>();
  const key = (sourceId: string, runId: string) => `${sourceId}/${runId}`;
  const source = (id: string) => options.sources.find((candidate) => candidate.id === id);

  const hub: RunHub = {
    source,
    async live(sourceId, runId) {
      const id = key(sourceId, runId);
      const timer = idleTimers.get(id);
      if (timer !== undefined) {
        clearTimeout(timer);
        idleTimers.delete(id);
      }
      let found = opened.get(id);
      if (found === undefined) {
        const from = source(sourceId);
        if (from === undefined) throw new Error(`unknown run source ${sourceId}`);
        const tuning = {
          ...(options.reconcileMs === undefined ? {} : { reconcileMs: options.reconcileMs }),
          ...(options.onError === undefined ? {} : { onError: options.onError }),
        };
        found = isLiveRunSource(from)
          ? from.openLive(runId, tuning)
          : from.watchRun(runId).then((reader) => openLiveRun({ reader, ...tuning }));
        opened.set(id, found);
        found.catch(() => opened.delete(id));
      }
      return found;
    },
    release(sourceId, runId, live, afterMs) {
      if (live.listeners > 0) return;
      const id = key(sourceId, runId);
      clearTimeout(idleTimers.get(id));
      const timer = setTimeout(
        () => {
          idleTimers.delete(id);
          if (live.listeners > 0) return;
          opened.delete(id);
          live.close().catch(() => {});
        },
        afterMs ?? options.idleCloseMs ?? 10_000,
      );
      timer.unref();
      idleTimers.set(id, timer);
    },
    prewarm(sourceId, runId, holdMs = 60_000) {
      if (source(sourceId) === undefined) return;
      hub.live(sourceId, runId).then(
        (live) => hub.release(sourceId, runId, live, holdMs),
        // A run that cannot be opened says so when the page asks for it.
        () => {},
      );
    },
    async close() {
      for (const timer of idleTimers.values()) clearTimeout(timer);
      idleTimers.clear();
      const all = [...opened.values()];
      opened.clear();
      for (const live of all) await (await live.catch(() => undefined))?.close();
    },
  };
  return hub;
}
