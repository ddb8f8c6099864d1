import { lstat, mkdir, readlink, realpath, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isTeamkitError } from '../errors/index.js';
import { makeTempFolder } from '../test-support/temp-folder.js';
import { assertSafeSegment, containedPath, resolveContainedRealPath } from './contained-path.js';

const isUnsafe = (segment: string) =>
  segment === '' || segment === '.' || segment === '..' || /[/\\\0]/.test(segment);

function isInside(base: string, candidate: string): boolean {
  const relative = path.relative(base, candidate);
  return relative.split(path.sep)[0] !== '..' && !path.isAbsolute(relative);
}

/** Segments built from the characters and names that matter for traversal. */
const segmentArbitrary = fc.oneof(
  fc.constantFrom('', '.', '..', '...', '/', '\\', '\0', 'a/..', '..\\..', '.hidden', 'a\0b'),
  fc.string({ unit: fc.constantFrom('a', '-', '.', '/', '\\', '\0', 'é', ' '), maxLength: 6 }),
  fc.string({ maxLength: 8 }),
);

function expectTraversal(run: () => unknown): void {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  expect(isTeamkitError(caught, 'PATH_TRAVERSAL')).toBe(true);
}

describe('assertSafeSegment', () => {
  it.each(['', '.', '..', 'a/b', '/', 'a\\b', '\\', 'a\0b', '\0'])('refuses %j', (segment) => {
    expectTraversal(() => assertSafeSegment(segment));
  });

  it.each(['writer', 'writer-2', '...', '.hidden', 'a..b'])('accepts %j', (segment) => {
    expect(assertSafeSegment(segment)).toBe(segment);
  });
});

describe('containedPath', () => {
  it('never returns a path outside its base, and refuses every unsafe segment', () => {
    const base = path.resolve('some', 'base');
    fc.assert(
      fc.property(fc.array(segmentArbitrary, { maxLength: 5 }), (segments) => {
        if (segments.some(isUnsafe)) {
          expectTraversal(() => containedPath(base, ...segments));
          return;
        }
        const result = containedPath(base, ...segments);
        expect(isInside(base, result)).toBe(true);
        expect(result).toBe(path.join(base, ...segments));
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('resolveContainedRealPath', () => {
  let root: string;
  let base: string;
  let outside: string;
  let removeRoot: () => Promise<void>;

  // base/                          outside/
  //   in/file                        secret
  //   to-in -> base/in
  //   to-out -> outside
  //   to-out-file -> outside/secret
  //   dangling-out -> outside/missing
  //   dangling-in -> base/missing
  //   relative-out -> ../outside
  beforeAll(async () => {
    ({ dir: root, cleanup: removeRoot } = await makeTempFolder());
    root = await realpath(root);
    base = path.join(root, 'base');
    outside = path.join(root, 'outside');
    await mkdir(path.join(base, 'in'), { recursive: true });
    await mkdir(outside);
    await writeFile(path.join(base, 'in', 'file'), 'inside');
    await writeFile(path.join(outside, 'secret'), 'outside');
    await symlink(path.join(base, 'in'), path.join(base, 'to-in'));
    await symlink(outside, path.join(base, 'to-out'));
    await symlink(path.join(outside, 'secret'), path.join(base, 'to-out-file'));
    await symlink(path.join(outside, 'missing'), path.join(base, 'dangling-out'));
    await symlink(path.join(base, 'missing'), path.join(base, 'dangling-in'));
    await symlink('../outside', path.join(base, 'relative-out'));
  });

  afterAll(async () => {
    await removeRoot();
  });

  /** Where the segments really lead, following each symlink (dangling ones too). */
  async function realDestination(segments: string[]): Promise<string> {
    let current = base;
    for (const [index, segment] of segments.entries()) {
      const next = path.join(current, segment);
      const info = await lstat(next).catch(() => undefined);
      if (info === undefined) return path.join(next, ...segments.slice(index + 1));
      current = info.isSymbolicLink() ? path.resolve(current, await readlink(next)) : next;
    }
    return current;
  }

  const names = ['in', 'file', 'to-in', 'to-out', 'to-out-file', 'dangling-out', 'dangling-in'];

  it('refuses exactly the paths whose real location leaves the base', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            fc.constantFrom(...names, 'relative-out', 'secret', 'missing'),
            segmentArbitrary,
          ),
          { maxLength: 4 },
        ),
        async (segments) => {
          let outcome: unknown;
          try {
            outcome = await resolveContainedRealPath(base, ...segments);
          } catch (error) {
            outcome = error;
          }
          if (segments.some(isUnsafe)) {
            expect(isTeamkitError(outcome, 'PATH_TRAVERSAL')).toBe(true);
            return;
          }
          const escapes = !isInside(base, await realDestination(segments));
          if (escapes) {
            expect(isTeamkitError(outcome, 'PATH_TRAVERSAL')).toBe(true);
          } else {
            expect(outcome).toBe(path.join(base, ...segments));
          }
        },
      ),
      { numRuns: 1_000 },
    );
  });

  it.each([
    [['to-out']],
    [['to-out', 'secret']],
    [['to-out-file']],
    [['dangling-out']],
    [['dangling-out', 'deeper']],
    [['relative-out', 'secret']],
  ])('refuses %j, which points outside the base', async (segments) => {
    const error = await resolveContainedRealPath(base, ...segments).catch((caught) => caught);
    expect(isTeamkitError(error, 'PATH_TRAVERSAL')).toBe(true);
  });

  it.each([[['to-in', 'file']], [['dangling-in']], [['in', 'new', 'deeper']], [[]]])(
    'accepts %j, which stays inside',
    async (segments) => {
      expect(await resolveContainedRealPath(base, ...segments)).toBe(path.join(base, ...segments));
    },
  );

  it('refuses a path through a symlink loop with PATH_TRAVERSAL, not a raw ELOOP', async () => {
    const { dir: folder, cleanup: remove } = await makeTempFolder();
    try {
      await symlink(path.join(folder, 'b'), path.join(folder, 'a'));
      await symlink(path.join(folder, 'a'), path.join(folder, 'b'));
      for (const segments of [['a'], ['a', 'file'], ['b', 'deeper', 'file']]) {
        const error = await resolveContainedRealPath(folder, ...segments).catch((caught) => caught);
        expect(isTeamkitError(error, 'PATH_TRAVERSAL'), String(error)).toBe(true);
        expect(String(error)).toContain('symlink loop');
      }
    } finally {
      await remove();
    }
  });

  it('accepts a base that is itself reached through a symlink', async () => {
    const alias = path.join(root, 'alias');
    await symlink(base, alias);
    expect(await resolveContainedRealPath(alias, 'to-in', 'file')).toBe(
      path.join(alias, 'to-in', 'file'),
    );
    const error = await resolveContainedRealPath(alias, 'to-out').catch((caught) => caught);
    expect(isTeamkitError(error, 'PATH_TRAVERSAL')).toBe(true);
  });
});
