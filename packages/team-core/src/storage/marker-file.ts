import { closeSync, mkdirSync, openSync, utimesSync } from 'node:fs';
import path from 'node:path';

/**
 * Creates an empty file only if none exists (`O_EXCL`); returns false when it already
 * existed. Exactly one of any number of concurrent creators gets true, which makes such
 * files usable as numbered slots without a lock.
 */
export async function createMarkerFile(target: string): Promise<boolean> {
  // One exclusive create of an empty file: a metadata call, made synchronously.
  let descriptor: number;
  try {
    descriptor = openSync(target, 'wx');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'ENOENT') throw error;
    mkdirSync(path.dirname(target), { recursive: true });
    return createMarkerFile(target);
  }
  closeSync(descriptor);
  return true;
}

/**
 * Sets a file's modification time (renames keep the old one, so a move that starts a
 * clock must set it). Returns false when the file no longer exists.
 */
export async function touchFile(target: string, timeMs: number): Promise<boolean> {
  const seconds = timeMs / 1000;
  try {
    utimesSync(target, seconds, seconds);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}
