import type { NotAvailable } from './not-available.js';
import type { Summary } from './statistics.js';

/** Whether a bigger or a smaller value is better. */
export type Better = 'higher' | 'lower';

/** Which side of the comparison a contender is on. */
export type Side = 'ours' | 'baseline';

/** What one round of a contender yields. */
export interface RoundSample {
  /** The contender's main value for this round (e.g. msgs/s, or p99 ms). */
  value: number;
  /** Further values of the same round, summarised separately (e.g. `{ p50: 0.4 }`). */
  extra?: Record<string, number>;
  /** Tasks that two claimants won in this round; any non-zero value fails the run. */
  doubleClaims?: number;
}

/**
 * One thing measured in a figure: ours or a baseline. The runner calls `setup` once,
 * then interleaves warm-up and measured rounds with the figure's other contenders so a
 * noisy neighbour hits all of them alike, then calls `teardown`.
 */
export interface Contender {
  /**
   * Unique within the figure, e.g. `claude-inbox-2k`; ratios refer to it. Keys of ours
   * start with `ours`, which keeps their ratios listed as pending while not available.
   */
  key: string;
  label: string;
  unit: string;
  better: Better;
  setup?(): Promise<void>;
  runRound(round: number): Promise<RoundSample>;
  teardown?(): Promise<void>;
}

/** Rounds every figure has; figures add their own sizes. */
export interface RoundSettings {
  warmup: number;
  rounds: number;
}

/** What a figure's contender factories receive. */
export interface FigureContext<S extends RoundSettings = RoundSettings> {
  settings: S;
  quick: boolean;
  /** Creates (and returns) a fresh folder inside the figure's temp folder. */
  folder(name: string): Promise<string>;
  log(message: string): void;
}

/** A ratio reported for a figure: `numerator / denominator` of the two medians. */
export interface RatioDefinition {
  /** Shown after the value, e.g. `raw floor` in "0.82× raw floor". */
  label: string;
  /** A contender key, optionally `#extra` (e.g. `fs-watch#p50`). */
  numerator: string;
  denominator: string;
  /** The goal, if there is one; never enforced by the exit code. */
  target?: { op: '>=' | '<='; value: number };
}

/**
 * A benchmark figure: its baselines, the seam where Teamkit's own implementation
 * ("ours") plugs in, and the ratios that make the headline.
 */
export interface FigureDefinition<S extends RoundSettings = RoundSettings> {
  /** Used by `--only`, e.g. `send`. */
  id: string;
  title: string;
  /** Short name for the headline, e.g. `send` in "send = 0.82× raw floor". */
  headline: string;
  settings(quick: boolean): S;
  baselines(context: FigureContext<S>): Promise<Contender[]>;
  /** Teamkit's contenders, or why they cannot be measured yet. */
  ours(context: FigureContext<S>): Promise<Contender[] | NotAvailable>;
  ratios: RatioDefinition[];
}

/** A contender's measured result. */
export interface Measurement {
  key: string;
  label: string;
  side: Side;
  unit: string;
  better: Better;
  summary: Summary;
  extra?: Record<string, Summary>;
  /** Sum over measured rounds; present for claim figures. */
  doubleClaims?: number;
}

/** A ratio with its value, or `null` while one side is not available. */
export interface RatioResult extends RatioDefinition {
  value: number | null;
  /** `null` when there is no target or no value. */
  met: boolean | null;
}

/** Everything the run found for one figure. */
export interface FigureResult {
  id: string;
  title: string;
  headline: string;
  settings: RoundSettings;
  ours: { status: 'measured' } | { status: 'not-available'; reason: string };
  measurements: Measurement[];
  ratios: RatioResult[];
  doubleClaims: number;
  /** Set when the benchmark itself broke; the run then exits non-zero. */
  error?: string;
  durationMs: number;
}
