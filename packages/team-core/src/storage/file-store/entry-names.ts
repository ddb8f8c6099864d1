import type { EntryState } from '../teamkit-store.js';

/** The folder of a collection that holds its processed entries. */
export const PROCESSED_FOLDER = 'processed';

const RESERVED_PREFIX = '.delivering-';
const SUFFIX = '.json';
const ID = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}$/;

/** The file name of entry `id` in `state` (processed entries live in {@link PROCESSED_FOLDER}). */
export function entryFileName(id: string, state: EntryState): string {
  return state === 'reserved' ? `${RESERVED_PREFIX}${id}${SUFFIX}` : `${id}${SUFFIX}`;
}

/** The entry id a file name stands for in `state`, or `undefined` for any other name. */
export function entryIdOf(name: string, state: EntryState): string | undefined {
  if (!name.endsWith(SUFFIX)) return undefined;
  let id = name.slice(0, -SUFFIX.length);
  if (state === 'reserved') {
    if (!id.startsWith(RESERVED_PREFIX)) return undefined;
    id = id.slice(RESERVED_PREFIX.length);
  }
  return ID.test(id) ? id : undefined;
}
