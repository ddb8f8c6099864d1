import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { onTestFailed } from 'vitest';

/** The last lines of each log a run wrote in a home (its supervisor's and its members'). */
export function homeLogs(home: string, options: { lines?: number } = {}): string {
  const keep = options.lines ?? 200;
  const runtime = path.join(home, 'runtime');
  const parts: string[] = [];
  let runs: string[];
  try {
    runs = readdirSync(runtime);
  } catch {
    return `${home}: no runtime folder\n`;
  }
  for (const run of runs) {
    const logs = path.join(runtime, run, 'logs');
    let names: string[];
    try {
      names = readdirSync(logs).sort();
    } catch {
      continue;
    }
    for (const name of names) {
      const file = path.join(logs, name);
      try {
        if (!statSync(file).isFile()) continue;
        const lines = readFileSync(file, 'utf8').split('\n');
        const shown = lines.slice(-keep).join('\n');
        parts.push(
          `--- ${path.basename(home)}: ${run}/logs/${name} (${lines.length} lines, last ${keep}) ---\n${shown}`,
        );
      } catch (error) {
        parts.push(`--- ${file}: unreadable (${(error as Error).message}) ---`);
      }
    }
  }
  return parts.length === 0 ? `${home}: no logs\n` : `${parts.join('\n')}\n`;
}

/**
 * Registers, for the current test, a dump of the homes' run logs to stderr when the test
 * fails: the evidence of a hang or a crash, printed before `afterAll` removes the homes.
 * Call it at the start of a test (or in `beforeEach`).
 */
export function dumpLogsOnFailure(homes: () => readonly (string | undefined)[]): void {
  onTestFailed(() => {
    for (const home of homes()) {
      if (home !== undefined) process.stderr.write(homeLogs(home));
    }
  });
}
