import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';

// The Node versions the docs name (getting-started.md: Node.js 20, 20.19 or newer) must be
// ones every installed package accepts, or `npm install` of the tarballs (and `pnpm
// install` of the clone) warns EBADENGINE. The one exception is documented in
// docs/adapters/opencode.md: ini 7, a dependency of OpenCode's own @opencode-ai/plugin
// (through effect), which OpenCode runs in its own runtime, not in Node.
const DOCUMENTED_NODE = ['20.19.0', '20.20.0'];
const DOCUMENTED_EXCEPTIONS = new Set(['ini@7.0.0']);

type Version = [number, number, number];

function parseVersion(text: string): Version {
  const parts = text.replace(/^v/, '').split('.');
  const part = (index: number) => {
    const value = parts[index];
    return value === undefined || value === 'x' || value === '*' ? 0 : Number(value);
  };
  const version: Version = [part(0), part(1), part(2)];
  if (version.some(Number.isNaN)) throw new Error(`unreadable version "${text}"`);
  return version;
}

const compare = (a: Version, b: Version) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/** Whether `node` satisfies one comparator of an engines range; unknown forms throw. */
function satisfiesComparator(node: Version, comparator: string): boolean {
  const match = /^(>=|<=|>|<|\^|~|=)?(\d+(?:\.(?:\d+|x|\*))*)$/.exec(comparator);
  if (match === null) throw new Error(`engines comparator "${comparator}" is not understood`);
  const [, op = '=', text = ''] = match;
  const wanted = parseVersion(text);
  const order = compare(node, wanted);
  const given = text.split('.').filter((part) => /^\d+$/.test(part)).length;
  switch (op) {
    case '>=':
      return order >= 0;
    case '>':
      return order > 0;
    case '<=':
      return order <= 0;
    case '<':
      return order < 0;
    case '^':
      return order >= 0 && node[0] === wanted[0];
    case '~':
      return order >= 0 && node[0] === wanted[0] && (given < 2 || node[1] === wanted[1]);
    default:
      return node.slice(0, given).every((value, index) => value === wanted[index]);
  }
}

/** Whether `node` satisfies an npm engines range (`a b || c`). */
function satisfiesRange(node: string, range: string): boolean {
  const version = parseVersion(node);
  return range.split('||').some((alternative) =>
    alternative
      .trim()
      .replace(/(>=|<=|>|<|\^|~|=)\s+/g, '$1')
      .split(/\s+/)
      .every((comparator) => satisfiesComparator(version, comparator)),
  );
}

describe('the Node versions the docs name', () => {
  it('understands the ranges it checks', () => {
    expect(satisfiesRange('20.19.0', '^20.19.0 || >=22.12.0')).toBe(true);
    expect(satisfiesRange('20.19.0', '>= 22.x')).toBe(false);
    expect(satisfiesRange('20.19.0', '^22.22.2 || ^24.15.0 || >=26.0.0')).toBe(false);
    expect(satisfiesRange('20.19.0', '>=6 <7 || >=8')).toBe(true);
    expect(satisfiesRange('20.19.0', '20.x || 22.x')).toBe(true);
    expect(satisfiesRange('20.19.0', '^20.17.0 || >=22.9.0')).toBe(true);
    expect(() => satisfiesRange('20.19.0', 'node@latest')).toThrow(/not understood/);
  });

  it('are accepted by every package of the lockfile, but the documented exception', async () => {
    const lockfile = await readFile(new URL('../../../../pnpm-lock.yaml', import.meta.url), 'utf8');
    const refused: string[] = [];
    let current: string | undefined;
    for (const line of lockfile.split('\n')) {
      const entry = /^ {2}'?([^' ][^']*?)'?:$/.exec(line);
      if (entry !== null) current = entry[1];
      const engines = /^ {4}engines: \{.*node: '?([^'},]+)'?/.exec(line);
      if (engines === null || current === undefined) continue;
      const range = (engines[1] ?? '').trim();
      for (const node of DOCUMENTED_NODE) {
        if (!satisfiesRange(node, range))
          refused.push(`${current} (node ${range}) refuses ${node}`);
      }
    }
    expect(refused.filter((line) => !DOCUMENTED_EXCEPTIONS.has(line.split(' ')[0] ?? ''))).toEqual(
      [],
    );
  });
});
