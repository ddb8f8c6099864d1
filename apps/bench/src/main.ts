import path from 'node:path';
import { errorMessage } from '@teamkit/team-core/errors';
import { parseBenchOptions, USAGE } from './bench-options.js';
import type { FigureResult } from './figure.js';
import { ALL_FIGURES } from './figures/all-figures.js';
import { describeMachine } from './machine-info.js';
import { ensureSqliteBuilt, SQLITE_FIGURES } from './native-sqlite.js';
import { formatTable, headlineOf } from './report-table.js';
import { type BenchResults, defaultResultsPath, writeResults } from './results-file.js';
import { runFigure } from './run-figure.js';

function displayPath(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative.startsWith('..') || path.isAbsolute(relative) ? file : relative;
}

function log(message: string): void {
  process.stderr.write(`${message}\n`);
}

async function main(argv: string[]): Promise<number> {
  let options: ReturnType<typeof parseBenchOptions>;
  try {
    options = parseBenchOptions(argv);
  } catch (error) {
    log(`${errorMessage(error)}\n\n${USAGE}`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(`${USAGE}\n\nFigures: ${ALL_FIGURES.map((f) => f.id).join(', ')}\n`);
    return 0;
  }
  const unknown = options.only.filter((id) => !ALL_FIGURES.some((figure) => figure.id === id));
  if (unknown.length > 0) {
    log(
      `Unknown figure ${unknown.join(', ')}; figures are ${ALL_FIGURES.map((f) => f.id).join(', ')}.`,
    );
    return 2;
  }
  const figures = ALL_FIGURES.filter(
    (figure) => options.only.length === 0 || options.only.includes(figure.id),
  );

  if (figures.some((figure) => SQLITE_FIGURES.includes(figure.id))) {
    const failure = await ensureSqliteBuilt(log);
    if (failure !== undefined) {
      log(`The SQLite baseline cannot run: ${failure}`);
      return 2;
    }
  }

  const started = performance.now();
  const machine = describeMachine();
  log(
    `teamkit bench${options.quick ? ' --quick' : ''}: ${figures.length} figures on ${machine.cpuModel} ×${machine.cores}, node ${machine.node}, temp fs ${machine.tempDirFilesystem ?? 'unknown'}`,
  );
  const results: FigureResult[] = [];
  for (const figure of figures) {
    log(`\n${figure.id}: ${figure.title}`);
    const result = await runFigure(figure, { quick: options.quick, log });
    if (result.ours.status === 'not-available') log(`  ours not available: ${result.ours.reason}`);
    if (result.error !== undefined) log(`  BROKEN: ${result.error}`);
    log(`  done in ${(result.durationMs / 1000).toFixed(1)} s`);
    results.push(result);
  }

  const doubleClaims = results.reduce((sum, result) => sum + result.doubleClaims, 0);
  const broken = results.filter((result) => result.error !== undefined);
  const headline = headlineOf(results);
  const document: BenchResults = {
    schemaVersion: 1,
    timestamp: new Date().toISOString(),
    argv,
    settings: { quick: options.quick, only: options.only, tempDir: 'os.tmpdir()' },
    machine,
    headline,
    doubleClaims,
    ok: broken.length === 0 && doubleClaims === 0,
    figures: results,
    durationMs: performance.now() - started,
  };
  const output = path.resolve(options.output ?? defaultResultsPath());
  await writeResults(output, document);

  process.stdout.write(`\n${formatTable(results)}\n\n`);
  for (const line of headline) process.stdout.write(`${line}\n`);
  const pending = results.filter((result) => result.ours.status === 'not-available');
  if (pending.length > 0) {
    process.stdout.write(`\nours not available yet:\n`);
    for (const result of pending) {
      if (result.ours.status === 'not-available') {
        process.stdout.write(`  ${result.id}: ${result.ours.reason}\n`);
      }
    }
  }
  process.stdout.write(
    `\ndouble claims: ${doubleClaims}; wrote ${displayPath(output)} in ${(document.durationMs / 1000).toFixed(1)} s\n`,
  );
  if (broken.length > 0) log(`broken benchmarks: ${broken.map((result) => result.id).join(', ')}`);
  if (doubleClaims > 0) log(`DOUBLE CLAIMS OBSERVED: ${doubleClaims}`);
  return document.ok ? 0 : 1;
}

process.exitCode = await main(process.argv.slice(2));
