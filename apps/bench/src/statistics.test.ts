import { describe, expect, it } from 'vitest';
import { median, percentile, summarize } from './statistics.js';

describe('median', () => {
  it('takes the middle value of an odd count', () => {
    expect(median([5, 1, 3])).toBe(3);
  });

  it('averages the two middle values of an even count', () => {
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('refuses an empty list and non-finite values', () => {
    expect(() => median([])).toThrow(RangeError);
    expect(() => median([1, Number.NaN])).toThrow(RangeError);
  });
});

describe('percentile', () => {
  const values = Array.from({ length: 101 }, (_, i) => 100 - i);

  it('matches exact ranks on 0..100', () => {
    expect(percentile(values, 0)).toBe(0);
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 99)).toBe(99);
    expect(percentile(values, 100)).toBe(100);
  });

  it('interpolates between ranks', () => {
    expect(percentile([10, 20], 25)).toBe(12.5);
  });

  it('refuses a percentile outside 0..100', () => {
    expect(() => percentile([1], 101)).toThrow(RangeError);
  });
});

describe('summarize', () => {
  it('reports median, extremes and quartiles without reordering the input', () => {
    const input = [9, 1, 5, 3, 7];
    expect(summarize(input)).toEqual({ median: 5, min: 1, max: 9, p25: 3, p75: 7, count: 5 });
    expect(input).toEqual([9, 1, 5, 3, 7]);
  });

  it('handles a single round', () => {
    expect(summarize([42])).toEqual({ median: 42, min: 42, max: 42, p25: 42, p75: 42, count: 1 });
  });
});
