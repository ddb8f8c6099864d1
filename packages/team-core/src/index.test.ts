import { access, readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import * as core from './index.js';
import * as processes from './processes/index.js';
import * as registry from './registry/index.js';
import * as schema from './schema/index.js';
import * as state from './state/index.js';
import * as storage from './storage/index.js';
import * as tmux from './tmux/index.js';
import * as worktree from './worktree/index.js';

type Target = string | Record<string, string>;
interface Manifest {
  exports: Record<string, Target>;
  publishConfig: { exports: Record<string, Target> };
}

const packageRoot = new URL('../', import.meta.url);
const manifest = JSON.parse(
  await readFile(new URL('package.json', packageRoot), 'utf8'),
) as Manifest;
const entries = Object.entries(manifest.exports).filter(
  (entry): entry is [string, Record<string, string>] => typeof entry[1] !== 'string',
);

describe('package entries', () => {
  it.each(entries)(
    '%s points at one source file and the dist files built from it',
    async (_, target) => {
      const source = target['teamkit-source'];
      expect(source).toMatch(/^\.\/src\/.+\.ts$/);
      const built = (source as string).replace(/^\.\/src\//, './dist/').replace(/\.ts$/, '');
      expect(target).toEqual({
        'teamkit-source': source,
        types: `${built}.d.ts`,
        import: `${built}.js`,
      });
      await access(new URL(source as string, packageRoot));
    },
  );

  it('publishes every entry, and only those, without the source condition', () => {
    const withoutSource = Object.fromEntries(
      Object.entries(manifest.exports).map(([name, target]) => {
        if (typeof target === 'string') return [name, target];
        const { 'teamkit-source': _source, ...rest } = target;
        return [name, rest];
      }),
    );
    expect(manifest.publishConfig.exports).toEqual(withoutSource);
  });
});

describe('the root entry', () => {
  it.each([
    ['schema', schema],
    ['state', state],
    ['storage', storage],
    ['processes', processes],
    ['tmux', tmux],
    ['worktree', worktree],
  ] as const)('leaves the values of %s to its subpath', (_, module) => {
    const names = Object.keys(module);
    expect(names.length).toBeGreaterThan(0);
    expect(names.filter((name) => name in core)).toEqual([]);
  });

  it('keeps the registry internals off the root', () => {
    for (const name of ['MemberIdRegistry', 'TeamManifestSchema', 'readConfigSource']) {
      expect(registry).toHaveProperty(name);
      expect(core, name).not.toHaveProperty(name);
    }
  });

  it('re-exports the very values of the subpaths it shares names with', () => {
    for (const module of [registry] as Record<string, unknown>[]) {
      for (const [name, value] of Object.entries(module)) {
        if (name in core) expect((core as Record<string, unknown>)[name], name).toBe(value);
      }
    }
  });
});
