import { type LiveRun, openLiveRun } from './live-run.js';
import type { RunSource } from './run-source.js';

/** Options for {@link createRunHub}. */
export interface RunHubOptions {
  sources: readonly RunSource[];
  /** How long a live run with no page open is kept before its watcher closes; default 10 s. */
  idleCloseMs?: number;
  reconcileMs?: number;
  onError?: (error: unknown) => void;
}

/** The live runs pages are looking at: one watcher per run, shared by every page. */
export interface RunHub {
  source(id: string): RunSource | undefined;
  /** The live view of a run, opened on first use. */
  live(sourceId: string, runId: string): Promise<LiveRun>;
  /** Marks a page gone; the run closes when no page watched it for a while. */
  release(sourceId: string, runId: string, live: LiveRun): void;
  close(): Promise<void>;
}

/** Creates the hub of one server. */
export function createRunHub(options: RunHubOptions): RunHub {
  const opened = new Map<string, Promise<LiveRun>>();
  const idleTimers = new Map<string, NodeJS.Timeout>();
  const key = (sourceId: string, runId: string) => `${sourceId}/${runId}`;
  const source = (id: string) => options.sources.find((candidate) => candidate.id === id);

  return {
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
        found = from.openRun(runId).then((reader) =>
          openLiveRun({
            reader,
            ...(options.reconcileMs === undefined ? {} : { reconcileMs: options.reconcileMs }),
            ...(options.onError === undefined ? {} : { onError: options.onError }),
          }),
        );
        opened.set(id, found);
        found.catch(() => opened.delete(id));
      }
      return found;
    },
    release(sourceId, runId, live) {
      if (live.listeners > 0) return;
      const id = key(sourceId, runId);
      clearTimeout(idleTimers.get(id));
      const timer = setTimeout(() => {
        idleTimers.delete(id);
        if (live.listeners > 0) return;
        opened.delete(id);
        live.close().catch(() => {});
      }, options.idleCloseMs ?? 10_000);
      timer.unref();
      idleTimers.set(id, timer);
    },
    async close() {
      for (const timer of idleTimers.values()) clearTimeout(timer);
      idleTimers.clear();
      const all = [...opened.values()];
      opened.clear();
      for (const live of all) await (await live.catch(() => undefined))?.close();
    },
  };
}
