import { readlink, realpath } from 'node:fs/promises';
import path from 'node:path';
import { TeamkitError } from '../errors/index.js';

/**
 * Checks one path segment that came from outside (a team, member, task or run name):
 * refuses empty, `.`, `..`, separators and NUL with `PATH_TRAVERSAL`, and returns it.
 */
export function assertSafeSegment(segment: string, what = 'name'): string {
  const reason =
    typeof segment !== 'string'
      ? 'it is not a string'
      : segment.length === 0
        ? 'it is empty'
        : segment === '.' || segment === '..'
          ? 'it is a relative folder reference'
          : /[/\\]/.test(segment)
            ? 'it contains a path separator'
            : segment.includes('\0')
              ? 'it contains a NUL byte'
              : undefined;
  if (reason !== undefined) {
    throw new TeamkitError(
      'PATH_TRAVERSAL',
      `Refused ${what} ${JSON.stringify(segment)}: ${reason}. Use a plain name such as "writer-2".`,
      { details: { what, segment } },
    );
  }
  return segment;
}

function isInside(base: string, candidate: string): boolean {
  const relative = path.relative(base, candidate);
  // Only a leading `..` segment escapes; names such as `...` or `..notes` stay inside.
  return relative.split(path.sep)[0] !== '..' && !path.isAbsolute(relative);
}

const MAX_SYMLINK_HOPS = 40;

/**
 * Joins checked segments onto `base` and verifies, lexically, that the result stays
 * inside `base`. Use {@link resolveContainedRealPath} where symlinks may exist.
 */
export function containedPath(base: string, ...segments: string[]): string {
  const root = path.resolve(base);
  for (const segment of segments) assertSafeSegment(segment, 'path segment');
  const joined = path.resolve(root, ...segments);
  if (!isInside(root, joined)) {
    throw new TeamkitError('PATH_TRAVERSAL', `Path ${joined} escapes ${root}.`, {
      details: { base: root, segments },
    });
  }
  return joined;
}

async function realpathOfDeepestExisting(target: string, hops = 0): Promise<string> {
  let current = target;
  const rest: string[] = [];
  for (;;) {
    try {
      const real = await realpath(current);
      return path.join(real, ...rest.reverse());
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
      // A dangling symlink still decides where a write lands: follow it.
      const link = await readlink(current).catch(() => undefined);
      if (link !== undefined) {
        if (hops >= MAX_SYMLINK_HOPS) {
          throw Object.assign(new Error(`Too many symlinks resolving ${target}`), {
            code: 'ELOOP',
          });
        }
        const pointed = path.resolve(path.dirname(current), link, ...rest.reverse());
        return realpathOfDeepestExisting(pointed, hops + 1);
      }
      const parent = path.dirname(current);
      if (parent === current) return target;
      rest.push(path.basename(current));
      current = parent;
    }
  }
}

/**
 * Like {@link containedPath}, then resolves symlinks on the existing part of the path
 * and refuses (`PATH_TRAVERSAL`) anything whose real location leaves the real `base`.
 */
export async function resolveContainedRealPath(
  base: string,
  ...segments: string[]
): Promise<string> {
  const lexical = containedPath(base, ...segments);
  let realBase: string;
  let realTarget: string;
  try {
    realBase = await realpathOfDeepestExisting(path.resolve(base));
    realTarget = await realpathOfDeepestExisting(lexical);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ELOOP') throw error;
    throw new TeamkitError(
      'PATH_TRAVERSAL',
      `Path ${lexical} runs into a symlink loop, so it cannot be shown to stay inside ${base}. Remove the loop.`,
      { cause: error, details: { base, segments } },
    );
  }
  if (!isInside(realBase, realTarget)) {
    throw new TeamkitError(
      'PATH_TRAVERSAL',
      `Path ${lexical} resolves through a symlink to ${realTarget}, outside ${realBase}.`,
      { details: { base: realBase, segments, resolved: realTarget } },
    );
  }
  return lexical;
}
