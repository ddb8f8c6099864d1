import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { buildsAreCurrent, sourceNodeArgs } from './source-node-args.js';

let folder: string;
afterEach(() => rmSync(folder, { recursive: true, force: true }));

function file(relative: string, secondsAgo: number): void {
  const target = path.join(folder, relative);
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileSync(target, '');
  const at = Date.now() / 1000 - secondsAgo;
  utimesSync(target, at, at);
}

describe('buildsAreCurrent', () => {
  it('is true only while each package is built after its newest source file', () => {
    folder = mkdtempSync(path.join(os.tmpdir(), 'teamkit-builds-'));
    file('core/src/a.ts', 100);
    file('core/dist/index.js', 50);
    file('docs-only/readme.md', 10);
    expect(buildsAreCurrent(folder)).toBe(true);
    // A test file or a fixture edited after the build changes no built code.
    file('core/src/a.test.ts', 1);
    file('core/src/__fixtures__/w.ts', 1);
    expect(buildsAreCurrent(folder)).toBe(true);
    file('core/src/deep/b.tsx', 1);
    expect(buildsAreCurrent(folder)).toBe(false);
  });

  it('is false when a package with sources was never built', () => {
    folder = mkdtempSync(path.join(os.tmpdir(), 'teamkit-builds-'));
    file('core/src/a.ts', 100);
    expect(buildsAreCurrent(folder)).toBe(false);
  });
});

describe('sourceNodeArgs', () => {
  it('passes the source condition and tsx exactly when a workspace build is stale', () => {
    folder = mkdtempSync(path.join(os.tmpdir(), 'teamkit-builds-'));
    const packages = fileURLToPath(new URL('../../../packages/', import.meta.url));
    const tsx = import.meta.resolve('tsx/esm');
    expect(sourceNodeArgs()).toEqual(
      buildsAreCurrent(packages) ? [] : ['--conditions=teamkit-source', '--import', tsx],
    );
  });
});
