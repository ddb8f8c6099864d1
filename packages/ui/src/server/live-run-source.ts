import type { RunSourceId, RunSummary } from '../protocol.js';
import type { LiveRun } from './live-run.js';
import type { RunSource } from './run-source.js';

/** How the hub opens a live run of a {@link LiveRunSource}. */
export interface OpenLiveOptions {
  /** How often the run is read again without a file event; the source's default if absent. */
  reconcileMs?: number;
  onError?: (error: unknown) => void;
}

/**
 * A system whose runs keep themselves up to date through a watch of their own (Claude
 * Code's teams), rather than a {@link RunSource} reader that the hub watches, and that
 * takes its own actions rather than Teamkit's.
 */
export interface LiveRunSource {
  readonly id: RunSourceId;
  readonly label: string;
  listRuns(): Promise<RunSummary[]>;
  /** The live view of one run; throws a `TeamkitError` when the run cannot be read. */
  openLive(runId: string, options: OpenLiveOptions): Promise<LiveRun>;
  /** Takes one action on a run; throws a `TeamkitError` when it is refused. */
  runAction(runId: string, action: string, input: unknown): Promise<unknown>;
  /** Stops what the source keeps running between requests (a watch of its listing). */
  close?(): Promise<void>;
}

/** Any source the UI lists runs from. */
export type AnyRunSource = RunSource | LiveRunSource;

/** True for a source that keeps its runs live itself. */
export function isLiveRunSource(source: AnyRunSource): source is LiveRunSource {
  return 'openLive' in source;
}
