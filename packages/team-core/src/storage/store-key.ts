import { TeamkitError } from '../errors/index.js';
import type { StoreKey } from './teamkit-store.js';

const SEGMENT = /^[A-Za-z0-9._-]+$/;
// Leaves room under the 255-byte name limit for what the file store appends to a name
// (`.lock.takeover`, `@<inode>` revision links, `.delivering-` and `.json` for entries).
const MAX_SEGMENT_LENGTH = 200;
const MAX_SEGMENTS = 32;

/** Names the file store keeps for itself inside every folder; never a key segment. */
export const REVISION_FOLDER = '.rev';
/** Prefix of staged temp files (written and fsynced, then linked or renamed into place). */
export const TEMP_PREFIX = '.tmp-';
/** Prefix of a folder renamed aside by `removeTree` before it is deleted. */
export const TRASH_PREFIX = '.trash-';

function segmentProblem(segment: string): string | undefined {
  if (segment.length === 0) return 'it has an empty segment';
  if (segment === '.' || segment === '..') return `it has the segment ${segment}`;
  if (segment.length > MAX_SEGMENT_LENGTH)
    return `a segment is over ${MAX_SEGMENT_LENGTH} characters`;
  if (!SEGMENT.test(segment)) {
    return `the segment ${JSON.stringify(segment)} has a character other than ASCII letters, digits, ".", "_" and "-"`;
  }
  if (
    segment === REVISION_FOLDER ||
    segment.startsWith(TEMP_PREFIX) ||
    segment.startsWith(TRASH_PREFIX)
  ) {
    return `${segment} is a name the store keeps for itself`;
  }
  return undefined;
}

function refuse(what: string, key: unknown, reason: string): never {
  throw new TeamkitError(
    'PATH_TRAVERSAL',
    `Refused ${what} ${JSON.stringify(key)}: ${reason}. Keys are relative paths such as "runtime/<runId>/tasks/1.json".`,
    { details: { what, key: typeof key === 'string' ? key : String(key) } },
  );
}

/**
 * Checks a key and returns its segments; `PATH_TRAVERSAL` for anything that could leave
 * the store's root or collide with the store's own names. With `allowRoot`, `''` (the
 * root itself, for listing and watching) is accepted and gives no segments.
 */
export function storeKeySegments(key: StoreKey, what = 'key', allowRoot = false): string[] {
  if (typeof key !== 'string') refuse(what, key, 'it is not a string');
  if (key === '') {
    if (allowRoot) return [];
    refuse(what, key, 'it is empty');
  }
  if (key.startsWith('/')) refuse(what, key, 'it is absolute');
  const segments = key.split('/');
  if (segments.length > MAX_SEGMENTS) refuse(what, key, `it has over ${MAX_SEGMENTS} segments`);
  for (const segment of segments) {
    const problem = segmentProblem(segment);
    if (problem !== undefined) refuse(what, key, problem);
  }
  return segments;
}

/** Checks one segment of a key (a member name, say); `PATH_TRAVERSAL` otherwise. */
export function assertKeySegment(segment: string, what = 'name'): string {
  if (typeof segment !== 'string') refuse(what, segment, 'it is not a string');
  const problem = segmentProblem(segment);
  if (problem !== undefined) refuse(what, segment, problem);
  return segment;
}

/** Checks an entry id: a key segment that does not start with a dot; `PATH_TRAVERSAL` otherwise. */
export function assertEntryId(id: string): string {
  if (typeof id !== 'string') refuse('entry id', id, 'it is not a string');
  const problem = segmentProblem(id);
  if (problem !== undefined) refuse('entry id', id, problem);
  if (id.startsWith('.')) refuse('entry id', id, 'it starts with a dot');
  return id;
}
