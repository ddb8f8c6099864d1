import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { errorMessage } from '@teamkit/team-core/errors';
import Database from 'better-sqlite3';

/** The figures with a SQLite baseline, which need better-sqlite3's native module. */
export const SQLITE_FIGURES: readonly string[] = [
  'send',
  'send-4',
  'claim',
  'store-claim',
  'store-send',
];

/** Why better-sqlite3 cannot open a database here, or `undefined` when it can. */
function sqliteFailure(): string | undefined {
  try {
    new Database(':memory:').close();
    return undefined;
  } catch (error) {
    return errorMessage(error);
  }
}

/** What {@link ensureSqliteBuilt} probes and builds with; tests hand in their own. */
export interface SqliteBuildSeams {
  /** Why the module cannot open a database, or `undefined` when it can. */
  probe?: () => string | undefined;
  /** Builds the package in its folder; rejects with the build's output when it fails. */
  build?: (folder: string) => Promise<unknown>;
}

function buildInFolder(folder: string): Promise<unknown> {
  return promisify(execFile)('npm', ['run', 'install'], {
    cwd: folder,
    maxBuffer: 64 * 1024 * 1024,
  });
}

/**
 * Makes sure the SQLite baseline can run. `pnpm install` does not build better-sqlite3
 * (`allowBuilds` in pnpm-workspace.yaml: only the benchmarks need it), so the first
 * benchmark run builds it with the package's own install script (a prebuilt binary when
 * one can be fetched, else node-gyp). Resolves with why it still cannot load, or
 * `undefined` once it can.
 */
export async function ensureSqliteBuilt(
  log: (message: string) => void,
  seams: SqliteBuildSeams = {},
): Promise<string | undefined> {
  const probe = seams.probe ?? sqliteFailure;
  if (probe() === undefined) return undefined;
  const folder = path.dirname(
    createRequire(import.meta.url).resolve('better-sqlite3/package.json'),
  );
  log(`building better-sqlite3 for the SQLite baseline (once), in ${folder}`);
  try {
    await (seams.build ?? buildInFolder)(folder);
  } catch (error) {
    const output = error as { stderr?: string; message?: string };
    return `building better-sqlite3 failed: ${(output.stderr ?? output.message ?? String(error)).trim().split('\n').slice(-5).join('\n')}`;
  }
  const failure = probe();
  return failure === undefined
    ? undefined
    : `better-sqlite3 was built but does not load: ${failure}`;
}
