import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * The variable that names a program explicitly instead of looking it up:
 * `TEAMKIT_<NAME>_BIN` (`TEAMKIT_CLAUDE_BIN`, `TEAMKIT_TEAMKIT_AGENT_BIN`).
 */
export function programOverrideVariable(name: string): string {
  return `TEAMKIT_${name.toUpperCase().replace(/-/g, '_')}_BIN`;
}

function isExecutableFile(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The executable file `program` names: a path (with a `/`) as it is, else the first match
 * in the absolute folders of `PATH`; `undefined` when there is none.
 */
export function findOnPath(program: string, env: NodeJS.ProcessEnv): string | undefined {
  if (program.includes('/')) return isExecutableFile(program) ? path.resolve(program) : undefined;
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (dir === '' || !path.isAbsolute(dir)) continue;
    const candidate = path.join(dir, program);
    if (isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

/**
 * The file the `bin` entry `bin` of package `packageName` names, as Node resolves the
 * package from `folder` (its `node_modules` and those above it). `undefined` when the
 * package is not found there or has no such entry; whether the file exists (a package
 * not yet built) is the caller's question.
 */
export function packageBinPath(
  packageName: string,
  bin: string,
  folder: string,
): string | undefined {
  let manifestPath: string;
  try {
    // The manifest, not the package's main entry: a package need not export anything else.
    manifestPath = createRequire(path.join(folder, 'package.json')).resolve(
      `${packageName}/package.json`,
    );
  } catch {
    return undefined;
  }
  try {
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { bin?: unknown };
    const bins = manifest.bin;
    // A single `bin` string is the package's only command, whatever it is called.
    const relative =
      typeof bins === 'string'
        ? bins
        : typeof bins === 'object' && bins !== null
          ? (bins as Record<string, unknown>)[bin]
          : undefined;
    return typeof relative === 'string'
      ? path.resolve(path.dirname(manifestPath), relative)
      : undefined;
  } catch {
    return undefined;
  }
}
