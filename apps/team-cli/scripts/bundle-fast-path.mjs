// Bundles `dist/fast-path.js` in place, so `team run status` on a home without working
// runs loads three modules instead of twenty (its start-up is timed: docs/performance.md).
//
// What goes into the bundle: the modules `fast-path.js` imports statically, and those it
// imports lazily on the way to answering a home without working runs (`INLINE_LAZY`).
// Everything else stays a module of its own, imported by a specifier that reaches the
// very file the unbundled code imports, so it is one module instance either way:
// - a file of this package: by its path relative to `dist/`;
// - a file of team-core: by the subpath team-core exports for it, or, for a lazy import of
//   a file it does not export, by its URL inside team-core's package (found at run time with
//   `import.meta.resolve`, so it works however the packages are installed);
// - any other package: by its name, as written.
// Copies of code are harmless; copies of identity are not. A module that declares a class
// (an error class is checked with `instanceof`) or holds module-level state (a `let`, a
// Map, a Set) is never copied into the bundle, unless `COPY_SAFE` says why a copy is safe.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const entry = path.join(dist, 'fast-path.js');
const coreRoot = path.dirname(
  fileURLToPath(import.meta.resolve('@teamkit/team-core/package.json')),
);
const coreDist = path.join(coreRoot, 'dist');
const coreExports = JSON.parse(await readFile(path.join(coreRoot, 'package.json'), 'utf8')).exports;

/** Lazily imported modules on the way to answering a home without working runs. */
const INLINE_LAZY = new Set([
  path.join(dist, 'run-command.js'),
  path.join(dist, 'command-context.js'),
  path.join(dist, 'output.js'),
  path.join(dist, 'commands', 'run', 'run-status.js'),
  path.join(dist, 'store-selection', 'select-home-store.js'),
  path.join(coreDist, 'home', 'index.js'),
  path.join(coreDist, 'processes', 'member-ancestors.js'),
]);

/** Modules with module-level state whose copies cannot disagree, and why. */
const COPY_SAFE = new Map([
  [
    path.join(coreDist, 'processes', 'process-facts.js'),
    'a memo of the boot time, the same in every copy',
  ],
]);

const IDENTITY =
  /^(?:export )?(?:abstract )?class |^(?:export )?let |^(?:export )?(?:const|let) \w+(?: *:[^=]+)? *= *new (?:Map|Set|WeakMap|WeakSet)\b/m;
const CORE_FILE = 'teamkit-core-file:';

/** The team-core subpath whose `import` target is `file`, if team-core exports one. */
function coreSubpath(file) {
  const relative = `./${path.relative(coreRoot, file).split(path.sep).join('/')}`;
  for (const [subpath, target] of Object.entries(coreExports)) {
    const file_ = typeof target === 'string' ? target : target.import;
    if (file_ === relative) return `@teamkit/team-core${subpath.slice(1)}`;
  }
  return undefined;
}

async function bearsIdentity(file) {
  return !COPY_SAFE.has(file) && IDENTITY.test(await readFile(file, 'utf8'));
}

const keptApart = [];

const boundary = {
  name: 'fast-path-boundary',
  setup(bundle) {
    bundle.onResolve({ filter: /.*/ }, async (args) => {
      if (args.kind === 'entry-point' || args.pluginData === 'resolved') return undefined;
      if (args.path.startsWith('node:')) return { path: args.path, external: true };
      const resolved = await bundle.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        pluginData: 'resolved',
      });
      if (resolved.errors.length > 0) return { errors: resolved.errors };
      const file = resolved.path;
      const inOurDist = file.startsWith(dist + path.sep);
      const inCoreDist = file.startsWith(coreDist + path.sep);
      if (!inOurDist && !inCoreDist) return { path: args.path, external: true };
      const wanted = args.kind !== 'dynamic-import' || INLINE_LAZY.has(file);
      if (wanted && !(await bearsIdentity(file))) return { path: file };
      if (wanted) keptApart.push(path.relative(root, file));
      if (inOurDist) {
        return { path: `./${path.relative(dist, file).split(path.sep).join('/')}`, external: true };
      }
      const subpath = coreSubpath(file);
      if (subpath !== undefined) return { path: subpath, external: true };
      if (args.kind !== 'dynamic-import') {
        return {
          errors: [
            {
              text: `${path.relative(coreRoot, file)} must stay one module but team-core exports no subpath for it; add one`,
            },
          ],
        };
      }
      return {
        path: `${CORE_FILE}${path.relative(coreRoot, file).split(path.sep).join('/')}`,
        external: true,
      };
    });
  },
};

const result = await build({
  entryPoints: [entry],
  bundle: true,
  write: false,
  outfile: entry,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  logLevel: 'warning',
  plugins: [boundary],
});

for (const output of result.outputFiles) {
  let text = output.text;
  if (output.path === entry) {
    // Lazy imports of team-core files it does not export: by their URL in its package.
    text = text.replaceAll(
      new RegExp(`import\\("${CORE_FILE}([^"]+)"\\)`, 'g'),
      (_, file) =>
        `import(new URL(${JSON.stringify(file)}, import.meta.resolve("@teamkit/team-core/package.json")).href)`,
    );
    if (text.includes(CORE_FILE))
      throw new Error(`bundle-fast-path: a ${CORE_FILE} import was not rewritten`);
  }
  await writeFile(output.path, text);
}
if (process.env.TEAMKIT_BUNDLE_VERBOSE) console.log(`kept apart: ${keptApart.join(', ')}`);
