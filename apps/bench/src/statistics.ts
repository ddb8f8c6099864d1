/** Median and spread of one measured quantity over the rounds of a figure. */
export interface Summary {
  /** The headline value: the median over rounds. */
  median: number;
  min: number;
  max: number;
  /** 25th percentile (lower quartile). */
  p25: number;
  /** 75th percentile (upper quartile). */
  p75: number;
  /** How many rounds were summarised. */
  count: number;
}

function sortedCopy(values: readonly number[]): number[] {
  if (values.length === 0) throw new RangeError('Cannot summarise an empty list of values.');
  for (const value of values) {
    if (!Number.isFinite(value)) throw new RangeError(`Not a finite number: ${value}`);
  }
  return [...values].sort((a, b) => a - b);
}

function percentileOfSorted(sorted: readonly number[], p: number): number {
  if (!(p >= 0 && p <= 100)) throw new RangeError(`Percentile must be within 0..100, got ${p}.`);
  const position = (p / 100) * (sorted.length - 1);
  const lowerIndex = Math.floor(position);
  const upperIndex = Math.ceil(position);
  const lower = sorted[lowerIndex] as number;
  const upper = sorted[upperIndex] as number;
  return lower + (upper - lower) * (position - lowerIndex);
}

/**
 * The `p`-th percentile (0..100) with linear interpolation between closest ranks, so
 * percentile(v, 50) equals the median and percentile(v, 0/100) the min/max.
 */
export function percentile(values: readonly number[], p: number): number {
  return percentileOfSorted(sortedCopy(values), p);
}

/** The median; the mean of the two middle values for an even count. */
export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** Median, min, max and quartiles of a non-empty list of finite numbers. */
export function summarize(values: readonly number[]): Summary {
  const sorted = sortedCopy(values);
  return {
    median: percentileOfSorted(sorted, 50),
    min: sorted[0] as number,
    max: sorted[sorted.length - 1] as number,
    p25: percentileOfSorted(sorted, 25),
    p75: percentileOfSorted(sorted, 75),
    count: sorted.length,
  };
}
