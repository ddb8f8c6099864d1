import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FigureResult } from './figure.js';
import type { MachineInfo } from './machine-info.js';

/** The document written to `results/latest.json`. */
export interface BenchResults {
  schemaVersion: 1;
  timestamp: string;
  /** The arguments the bench ran with, e.g. `["--quick"]`. */
  argv: string[];
  settings: { quick: boolean; only: string[]; tempDir: 'os.tmpdir()' };
  machine: MachineInfo;
  headline: string[];
  /** Double claims over every claim figure, ours and baselines; must be 0. */
  doubleClaims: number;
  /** False when a benchmark broke or a double claim was seen. */
  ok: boolean;
  figures: FigureResult[];
  durationMs: number;
}

/** `apps/bench/results/latest.json`, found relative to the compiled module. */
export function defaultResultsPath(): string {
  return fileURLToPath(new URL('../results/latest.json', import.meta.url));
}

/** Writes the results as pretty JSON, creating the folder if needed. */
export async function writeResults(file: string, results: BenchResults): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(results, null, 2)}\n`);
}
