import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import * as errors from './errors/index.js';
import * as core from './index.js';
import * as schema from './schema/index.js';
import * as storage from './storage/index.js';

/** Names listed in the `export type { … }` blocks of a source file. */
async function exportedTypeNames(relative: string): Promise<string[]> {
  const text = await readFile(new URL(relative, import.meta.url), 'utf8');
  return [...text.matchAll(/export type \{([^}]*)\}/g)].flatMap((match) =>
    (match[1] ?? '')
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name !== ''),
  );
}

describe('public entry point', () => {
  it.each([
    ['errors', errors],
    ['schema', schema],
    ['storage', storage],
  ] as const)('exports every value of %s/index.ts', (_, module) => {
    for (const [name, value] of Object.entries(module)) {
      expect(core, name).toHaveProperty(name);
      expect((core as Record<string, unknown>)[name], name).toBe(value);
    }
  });

  it.each(['errors', 'schema', 'storage'])('exports every type of %s/index.ts', async (folder) => {
    const publicTypes = new Set(await exportedTypeNames('./index.ts'));
    const types = await exportedTypeNames(`./${folder}/index.ts`);
    expect(types.length).toBeGreaterThan(0);
    expect(types.filter((name) => !publicTypes.has(name))).toEqual([]);
  });
});
