import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const sourceRoot = dirname(fileURLToPath(import.meta.url));
const specifierPattern =
  /(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g;

/** Every package a module pulls in, following its relative imports through the sources. */
async function packagesImportedBy(entry: string): Promise<Set<string>> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const pending = [entry];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    const source = await readFile(file, 'utf8');
    for (const match of source.matchAll(specifierPattern)) {
      const specifier = match[1] ?? match[2] ?? match[3];
      if (specifier === undefined) continue;
      if (specifier.startsWith('.'))
        pending.push(join(dirname(file), specifier.replace(/\.js$/, '.ts')));
      else packages.add(specifier);
    }
  }
  return packages;
}

describe('@teamkit/test-harness entry points', () => {
  it('the root entry never imports vitest', async () => {
    const packages = await packagesImportedBy(join(sourceRoot, 'index.ts'));
    expect(packages).toContain('@teamkit/team-core');
    expect([...packages].filter((name) => name === 'vitest' || name.startsWith('vitest/'))).toEqual(
      [],
    );
  });

  it('the conformance entry is the one that imports vitest', async () => {
    const packages = await packagesImportedBy(join(sourceRoot, 'conformance', 'index.ts'));
    expect(packages).toContain('vitest');
  });
});
