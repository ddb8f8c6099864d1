import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The export condition under which each workspace package resolves to its TypeScript source. */
export const SOURCE_CONDITION = 'teamkit-source';

let cached: string[] | undefined;

/**
 * The Node.js arguments that make a child process run the same Teamkit code as the caller.
 *
 * Loaded from built code, it returns no arguments: children use the built code, like the
 * caller. Loaded from TypeScript source (the repository's tests, under the
 * `teamkit-source` condition), it checks the workspace's builds: when every package's
 * `dist/` is newer than its `src/`, the children load `dist/`, which is then the same
 * code and starts several times faster; when one is older or missing, they get the
 * `teamkit-source` condition and `tsx`'s ESM hooks, so every `@teamkit/*` import is
 * compiled from source on load. Either way a race or crash test never runs a stale build.
 */
export function sourceNodeArgs(): string[] {
  if (!import.meta.url.endsWith('.ts')) return [];
  cached ??= buildsAreCurrent(workspacePackagesFolder())
    ? []
    : [`--conditions=${SOURCE_CONDITION}`, '--import', import.meta.resolve('tsx/esm')];
  return cached;
}

/** This file is in `tools/test-support/src/`: the workspace's packages are in `packages/`. */
function workspacePackagesFolder(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../packages');
}

/**
 * Whether every package in `packagesFolder` that has TypeScript sources has a
 * `dist/index.js` at least as new as its newest source file (tests and fixtures aside).
 */
export function buildsAreCurrent(packagesFolder: string): boolean {
  const packages = readdirSync(packagesFolder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => path.join(packagesFolder, entry.name));
  for (const root of packages) {
    const newestSource = newestTypeScript(path.join(root, 'src'));
    if (newestSource === 0) continue;
    const built = modifiedAt(path.join(root, 'dist', 'index.js'));
    if (built === undefined || built < newestSource) return false;
  }
  return true;
}

function modifiedAt(file: string): number | undefined {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
}

/** The newest modification time of a non-test `.ts`/`.tsx` file under `folder` (0: none). */
function newestTypeScript(folder: string): number {
  let newest = 0;
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const file = path.join(folder, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== '__fixtures__') newest = Math.max(newest, newestTypeScript(file));
    } else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
      newest = Math.max(newest, modifiedAt(file) ?? 0);
    }
  }
  return newest;
}
