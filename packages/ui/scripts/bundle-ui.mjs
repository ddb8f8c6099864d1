// Bundles the `team ui` page (Preact, TypeScript) into dist/web/ at build time, so the
// published package serves it offline with no CDN and the server itself loads none of it.
import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const source = path.join(root, 'src', 'web');
const target = path.join(root, 'dist', 'web');

await mkdir(target, { recursive: true });
await build({
  entryPoints: [path.join(source, 'main.tsx')],
  outfile: path.join(target, 'app.js'),
  bundle: true,
  format: 'esm',
  target: 'es2022',
  platform: 'browser',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  minify: true,
  sourcemap: false,
  legalComments: 'eof',
  logLevel: 'warning',
});
await copyFile(path.join(source, 'app.css'), path.join(target, 'app.css'));
