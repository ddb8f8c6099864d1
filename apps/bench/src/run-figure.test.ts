import { describe, expect, it } from 'vitest';
import type { Contender, FigureDefinition } from './figure.js';
import { notAvailable } from './not-available.js';
import { runFigure } from './run-figure.js';

function fixedContender(key: string, values: number[], doubleClaims?: number): Contender {
  return {
    key,
    label: key,
    unit: 'op/s',
    better: 'higher',
    async runRound(round) {
      return { value: values[round] ?? 0, doubleClaims };
    },
  };
}

function figureWith(ours: FigureDefinition['ours'], baseline: Contender): FigureDefinition {
  return {
    id: 'fake',
    title: 'fake figure',
    headline: 'fake',
    settings: () => ({ warmup: 1, rounds: 3 }),
    ours,
    baselines: async () => [baseline],
    ratios: [
      { label: 'base', numerator: 'ours', denominator: 'base', target: { op: '>=', value: 0.5 } },
    ],
  };
}

const options = { quick: true, log: () => {} };

describe('runFigure', () => {
  it('drops warm-up rounds and reports medians and ratios', async () => {
    const figure = figureWith(
      async () => [fixedContender('ours', [1_000, 10, 30, 20])],
      fixedContender('base', [1_000, 40, 40, 40]),
    );
    const result = await runFigure(figure, options);
    expect(result.error).toBeUndefined();
    expect(result.measurements.find((m) => m.key === 'ours')?.summary.median).toBe(20);
    expect(result.ratios[0]).toMatchObject({ value: 0.5, met: true });
  });

  it('reports ours as not available, with a pending ratio and no error', async () => {
    const figure = figureWith(
      async () => notAvailable('not exported yet'),
      fixedContender('base', [1, 2, 3, 4]),
    );
    const result = await runFigure(figure, options);
    expect(result.error).toBeUndefined();
    expect(result.ours).toEqual({ status: 'not-available', reason: 'not exported yet' });
    expect(result.ratios[0]).toMatchObject({ value: null, met: null });
  });

  it('sums double claims over measured rounds', async () => {
    const figure = figureWith(
      async () => [fixedContender('ours', [1, 1, 1, 1], 1)],
      fixedContender('base', [1, 1, 1, 1], 0),
    );
    const result = await runFigure(figure, options);
    expect(result.doubleClaims).toBe(3);
  });

  it('records a broken benchmark instead of throwing', async () => {
    const broken: Contender = {
      ...fixedContender('base', []),
      async runRound() {
        throw new Error('boom');
      },
    };
    const result = await runFigure(
      figureWith(async () => notAvailable('n/a'), broken),
      options,
    );
    expect(result.error).toContain('boom');
  });
});
