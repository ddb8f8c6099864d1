import { rm } from 'node:fs/promises';

/** Removes a folder and everything in it; a missing folder is fine (set-up only, never timed). */
export function removeTree(folder: string): Promise<void> {
  return rm(folder, { recursive: true, force: true });
}
