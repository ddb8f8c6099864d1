import { randomUUID } from 'node:crypto';
import { linkSync } from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import path from 'node:path';
import { TeamkitError } from '../errors/index.js';
import { unlinkWithRetry } from './fs-retry.js';

/** A fully written, fsynced temp file waiting to be linked into place. */
export interface StagedFile {
  /** The temp file (`.tmp-<uuid>` in the target folder, so never listed as a document). */
  readonly path: string;
  /** Hard-links the staged content to `target`; `ALREADY_EXISTS` if `target` exists. */
  publish(target: string): Promise<void>;
  /** Removes the temp file; safe to call after {@link StagedFile.publish} and more than once. */
  discard(): Promise<void>;
}

// The folder almost always exists, so it is created only when the create says it is missing.
async function openExclusive(file: string) {
  try {
    return await open(file, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    await mkdir(path.dirname(file), { recursive: true });
    return open(file, 'wx');
  }
}

/**
 * Writes and fsyncs `data` to a dot-prefixed temp file in `directory`, so the slow part
 * of a create happens before any lock is taken; {@link StagedFile.publish} then makes it
 * visible under its final name in one link, which never overwrites. Callers fsync the
 * folder afterwards (see `fsyncDirectory`).
 */
export async function stageFile(directory: string, data: string | Buffer): Promise<StagedFile> {
  const temp = path.join(directory, `.tmp-${randomUUID()}`);
  const handle = await openExclusive(temp);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } catch (error) {
    await handle.close().catch(() => {});
    await unlinkWithRetry(temp);
    throw error;
  }
  await handle.close();
  return {
    path: temp,
    async publish(target) {
      try {
        linkSync(temp, target);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
          throw new TeamkitError(
            'ALREADY_EXISTS',
            `${target} already exists; it was left untouched.`,
            { details: { path: target } },
          );
        }
        throw error;
      }
    },
    discard: () => unlinkWithRetry(temp),
  };
}
