import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** A fresh folder of a test, and the function that removes it with everything inside. */
export interface TempFolder {
  dir: string;
  cleanup: () => Promise<void>;
}

/**
 * The one temp-folder fixture of team-core's tests: a fresh folder in the OS temp folder
 * (named `<prefix><random>`), removed by `cleanup` (retried while a file is busy).
 */
export async function makeTempFolder(prefix = 'teamkit-core-test-'): Promise<TempFolder> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true, maxRetries: 3 }) };
}
