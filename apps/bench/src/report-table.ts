import type { FigureResult, Measurement, RatioResult } from './figure.js';
import type { Summary } from './statistics.js';

/** A number with about three significant digits and thousands separators. */
export function formatNumber(value: number): string {
  const magnitude = Math.abs(value);
  const digits = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : magnitude >= 1 ? 2 : 3;
  return value.toLocaleString('en-US', {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
}

function formatSummary(summary: Summary, unit: string): string {
  return `${formatNumber(summary.median)} ${unit} [${formatNumber(summary.min)}–${formatNumber(summary.max)}]`;
}

function findMeasurement(figure: FigureResult, ref: string): Measurement | undefined {
  const [key] = ref.split('#');
  return figure.measurements.find((measurement) => measurement.key === key);
}

function formatRef(figure: FigureResult, ref: string, withLabel: boolean): string {
  const measurement = findMeasurement(figure, ref);
  if (measurement === undefined) return ref.startsWith('ours') ? 'not available' : '—';
  const [, extra] = ref.split('#');
  const summary = extra === undefined ? measurement.summary : measurement.extra?.[extra];
  if (summary === undefined) return '—';
  const unit = extra === undefined ? measurement.unit : `ms ${extra}`;
  const value = formatSummary(summary, unit);
  return withLabel ? `${measurement.label}: ${value}` : value;
}

/** `0.82×`, or `pending` when a side is not available. */
export function formatRatio(ratio: RatioResult): string {
  return ratio.value === null ? 'pending vs' : `${formatNumber(ratio.value)}×`;
}

function formatTarget(ratio: RatioResult): string {
  if (ratio.target === undefined) return '—';
  return `${ratio.target.op === '>=' ? '≥' : '≤'} ${ratio.target.value}×`;
}

function formatMet(ratio: RatioResult): string {
  if (ratio.target === undefined) return '—';
  if (ratio.met === null) return 'pending';
  return ratio.met ? 'yes' : 'NO';
}

type Row = [string, string, string, string, string, string];

function rowsOf(figure: FigureResult): Row[] {
  const rows: Row[] = [];
  if (figure.error !== undefined) {
    rows.push([figure.title, 'BROKEN', figure.error.split('\n')[0] ?? '', '', '', '']);
    return rows;
  }
  const referenced = new Set<string>();
  for (const ratio of figure.ratios) {
    for (const ref of [ratio.numerator, ratio.denominator])
      referenced.add(ref.split('#')[0] ?? ref);
    rows.push([
      '',
      formatRef(figure, ratio.numerator, ratio.numerator.includes('#')),
      formatRef(figure, ratio.denominator, true),
      `${formatRatio(ratio)} ${ratio.label}`,
      formatTarget(ratio),
      formatMet(ratio),
    ]);
  }
  for (const measurement of figure.measurements) {
    if (referenced.has(measurement.key)) continue;
    const cell = `${measurement.label}: ${formatSummary(measurement.summary, measurement.unit)}`;
    rows.push(
      measurement.side === 'ours' ? ['', cell, '—', '—', '—', '—'] : ['', '—', cell, '—', '—', '—'],
    );
  }
  if (figure.ours.status === 'not-available' && !rows.some((row) => row[1] === 'not available')) {
    rows.unshift(['', 'not available', rows.length === 0 ? '—' : '', '', '', '']);
  }
  if (figure.doubleClaims > 0 || figure.measurements.some((m) => m.doubleClaims !== undefined)) {
    const counts = figure.measurements
      .filter((measurement) => measurement.doubleClaims !== undefined)
      .map((measurement) => `${measurement.key} ${measurement.doubleClaims}`);
    rows.push([
      '',
      '',
      `double claims: ${counts.join(', ')}`,
      '',
      'must be 0',
      figure.doubleClaims === 0 ? 'yes' : 'NO',
    ]);
  }
  const first = rows[0];
  if (first !== undefined) first[0] = figure.title;
  return rows;
}

/** The run as an aligned plain-text table: figure, ours, baseline, ratio, target, met. */
export function formatTable(figures: readonly FigureResult[]): string {
  const header: Row = ['figure', 'ours', 'baseline', 'ratio (ours / baseline)', 'target', 'met?'];
  const rows = figures.flatMap(rowsOf);
  const widths = header.map((cell, column) =>
    Math.max(cell.length, ...rows.map((row) => row[column]?.length ?? 0)),
  );
  const line = (row: readonly string[]) =>
    row
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  return [line(header), rule, ...rows.map(line)].join('\n');
}

/** The headline ratios, e.g. "send = 0.82× raw floor, 41× Claude inbox at 2k". */
export function headlineOf(figures: readonly FigureResult[]): string[] {
  const lines: string[] = [];
  for (const figure of figures) {
    const targeted = figure.ratios.filter((ratio) => ratio.target !== undefined);
    if (targeted.length === 0) continue;
    const parts = targeted.map((ratio) => `${formatRatio(ratio)} ${ratio.label}`);
    lines.push(`${figure.headline} = ${parts.join(', ')}`);
  }
  return lines;
}
