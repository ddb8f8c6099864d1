import { REVISION_FOLDER, TEMP_PREFIX, TRASH_PREFIX } from '../store-key.js';

/**
 * Whether a name in a store folder is the store's own (revision links, staged temp files,
 * trees being removed, lock folders) and so never listed, watched or read as a key.
 */
export function isStoreInternal(name: string, isDirectory: boolean): boolean {
  return (
    name === REVISION_FOLDER ||
    name.startsWith(TEMP_PREFIX) ||
    name.startsWith(TRASH_PREFIX) ||
    (isDirectory && (name.endsWith('.lock') || name.endsWith('.lock.takeover')))
  );
}
