import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PUBLISHED_PACKAGES, REPO_ROOT } from './test-support/tarballs.js';

type Exports = Record<string, string | Record<string, string>>;

function manifest(folder: string): {
  exports: Exports;
  publishConfig?: { exports?: Exports };
  files?: string[];
} {
  return JSON.parse(readFileSync(join(REPO_ROOT, folder, 'package.json'), 'utf8'));
}

// `teamkit-source` points the workspace's own tests at src/, which no tarball ships;
// `publishConfig.exports` (applied by `pnpm pack`/`publish`) is the same map without it.
describe('the manifests the tarballs get', () => {
  it.each(PUBLISHED_PACKAGES)('%s publishes its exports without the source condition', (folder) => {
    const { exports, publishConfig } = manifest(folder);
    const withoutSource = Object.fromEntries(
      Object.entries(exports).map(([path, target]) => {
        if (typeof target === 'string') return [path, target];
        const { 'teamkit-source': _source, ...rest } = target;
        return [path, rest];
      }),
    );
    expect(publishConfig?.exports).toEqual(withoutSource);
    expect(JSON.stringify(publishConfig?.exports)).not.toContain('/src/');
  });

  it.each(PUBLISHED_PACKAGES)('%s ships dist and leaves test files out', (folder) => {
    const { files } = manifest(folder);
    expect(files).toContain('dist');
    expect(files).toContain('!dist/**/*.test.*');
  });
});
