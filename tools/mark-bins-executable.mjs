// Marks the `bin` files of the package in the current folder executable after a build, so
// a bin linked straight from a clone (ln -s …/dist/bin.js ~/.local/bin/team) runs; npm
// sets the bit itself only when it installs a package.
import { chmodSync, readFileSync } from 'node:fs';
import path from 'node:path';

const manifest = JSON.parse(readFileSync('package.json', 'utf8'));
const bins = typeof manifest.bin === 'string' ? [manifest.bin] : Object.values(manifest.bin ?? {});
for (const bin of bins) chmodSync(path.resolve(bin), 0o755);
