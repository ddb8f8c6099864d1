import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { errorMessage } from '@teamkit/team-core/errors';
import type {
  Contender,
  FigureContext,
  FigureDefinition,
  FigureResult,
  Measurement,
  RatioResult,
  RoundSample,
  Side,
} from './figure.js';
import { isNotAvailable } from './not-available.js';
import { summarize } from './statistics.js';

interface SideContender {
  side: Side;
  contender: Contender;
  samples: RoundSample[];
}

/** Options for {@link runFigure}. */
export interface RunFigureOptions {
  quick: boolean;
  log(message: string): void;
}

function measurementOf({ side, contender, samples }: SideContender): Measurement {
  const measurement: Measurement = {
    key: contender.key,
    label: contender.label,
    side,
    unit: contender.unit,
    better: contender.better,
    summary: summarize(samples.map((sample) => sample.value)),
  };
  const extraNames = new Set(samples.flatMap((sample) => Object.keys(sample.extra ?? {})));
  if (extraNames.size > 0) {
    measurement.extra = {};
    for (const name of extraNames) {
      const values = samples.flatMap((sample) => {
        const value = sample.extra?.[name];
        return value === undefined ? [] : [value];
      });
      measurement.extra[name] = summarize(values);
    }
  }
  if (samples.some((sample) => sample.doubleClaims !== undefined)) {
    measurement.doubleClaims = samples.reduce((sum, sample) => sum + (sample.doubleClaims ?? 0), 0);
  }
  return measurement;
}

/** The median a ratio refers to: `key` or `key#extra`; undefined when not measured. */
export function resolveMetric(
  measurements: readonly Measurement[],
  ref: string,
): number | undefined {
  const [key, extra] = ref.split('#');
  const measurement = measurements.find((candidate) => candidate.key === key);
  if (measurement === undefined) return undefined;
  return extra === undefined ? measurement.summary.median : measurement.extra?.[extra]?.median;
}

function computeRatios(
  figure: FigureDefinition,
  measurements: readonly Measurement[],
): RatioResult[] {
  // A ratio against a baseline this run did not measure (a smaller --quick set) is left
  // out; one whose "ours" side is missing stays, as pending.
  const measuredOrOurs = (ref: string) =>
    ref.startsWith('ours') || resolveMetric(measurements, ref) !== undefined;
  const applicable = figure.ratios.filter(
    (ratio) => measuredOrOurs(ratio.numerator) && measuredOrOurs(ratio.denominator),
  );
  return applicable.map((ratio) => {
    const numerator = resolveMetric(measurements, ratio.numerator);
    const denominator = resolveMetric(measurements, ratio.denominator);
    const value =
      numerator === undefined || denominator === undefined || denominator === 0
        ? null
        : numerator / denominator;
    let met: boolean | null = null;
    if (value !== null && ratio.target !== undefined) {
      met = ratio.target.op === '>=' ? value >= ratio.target.value : value <= ratio.target.value;
    }
    return { ...ratio, value, met };
  });
}

async function roundsInterleaved(
  contenders: SideContender[],
  warmup: number,
  rounds: number,
  log: (message: string) => void,
): Promise<void> {
  const total = warmup + rounds;
  for (let round = 0; round < total; round++) {
    // Rotating the order keeps "always runs first/last" effects off any one contender.
    for (let offset = 0; offset < contenders.length; offset++) {
      const entry = contenders[(round + offset) % contenders.length] as SideContender;
      const sample = await entry.contender.runRound(round);
      if (!Number.isFinite(sample.value)) {
        throw new Error(`${entry.contender.label} produced a non-finite value (${sample.value}).`);
      }
      if (round >= warmup) entry.samples.push(sample);
    }
    log(`  round ${round + 1}/${total}${round < warmup ? ' (warm-up)' : ''}`);
  }
}

/**
 * Runs one figure in its own temp folder under the OS temp dir: builds ours and the
 * baselines, runs warm-up then measured rounds interleaved, summarises each contender
 * and computes the ratios. A broken benchmark is reported in `error`, never thrown.
 */
export async function runFigure(
  figure: FigureDefinition,
  options: RunFigureOptions,
): Promise<FigureResult> {
  const started = performance.now();
  const settings = figure.settings(options.quick);
  const root = await mkdtemp(path.join(tmpdir(), `teamkit-bench-${figure.id}-`));
  const context: FigureContext = {
    settings,
    quick: options.quick,
    log: options.log,
    async folder(name) {
      const folder = path.join(root, name);
      await mkdir(folder, { recursive: true });
      return folder;
    },
  };
  const result: FigureResult = {
    id: figure.id,
    title: figure.title,
    headline: figure.headline,
    settings,
    ours: { status: 'measured' },
    measurements: [],
    ratios: [],
    doubleClaims: 0,
    durationMs: 0,
  };
  const contenders: SideContender[] = [];
  const setUp: SideContender[] = [];
  try {
    const ours = await figure.ours(context);
    if (isNotAvailable(ours)) {
      result.ours = { status: 'not-available', reason: ours.reason };
    } else {
      for (const contender of ours) contenders.push({ side: 'ours', contender, samples: [] });
    }
    for (const contender of await figure.baselines(context)) {
      contenders.push({ side: 'baseline', contender, samples: [] });
    }
    for (const entry of contenders) {
      await entry.contender.setup?.();
      setUp.push(entry);
    }
    await roundsInterleaved(contenders, settings.warmup, settings.rounds, options.log);
    result.measurements = contenders.map(measurementOf);
    result.doubleClaims = result.measurements.reduce((sum, m) => sum + (m.doubleClaims ?? 0), 0);
  } catch (error) {
    result.error = errorMessage(error, { stack: true });
  } finally {
    for (const entry of setUp.reverse()) {
      try {
        await entry.contender.teardown?.();
      } catch (error) {
        result.error ??= `teardown of ${entry.contender.label} failed: ${String(error)}`;
      }
    }
    await rm(root, { recursive: true, force: true, maxRetries: 5 });
  }
  if (result.error === undefined) result.ratios = computeRatios(figure, result.measurements);
  result.durationMs = performance.now() - started;
  return result;
}
