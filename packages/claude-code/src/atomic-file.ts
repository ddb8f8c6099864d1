import { randomBytes } from 'node:crypto';
import { link, open, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import { fsyncDirectory } from '@teamkit/team-core/storage';

// Claude Code names its own temp files `<file>.tmp.<8 hex>`; its readers list only
// names ending in `.json`, so such a file is never read as an inbox or a task.
function tempNameOf(target: string): string {
  return `${target}.tmp.${randomBytes(4).toString('hex')}`;
}

async function writeTemp(target: string, text: string): Promise<string> {
  const temp = tempNameOf(target);
  // `wx`: a temp file is always new; the folder must already exist (never created here).
  const handle = await open(temp, 'wx', 0o644);
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } catch (error) {
    await handle.close();
    await unlink(temp).catch(() => {});
    throw error;
  }
  await handle.close();
  return temp;
}

/**
 * Replaces `target` with `text` so a reader sees the old or the new content, never a
 * mix: a fsynced temp file renamed over it, then the folder fsynced. `beforeCommit`
 * runs right before the rename (to check a lock is still held) and may throw.
 */
export async function replaceFileAtomically(
  target: string,
  text: string,
  beforeCommit: () => void = () => {},
): Promise<void> {
  const temp = await writeTemp(target, text);
  try {
    beforeCommit();
    await rename(temp, target);
  } catch (error) {
    await unlink(temp).catch(() => {});
    throw error;
  }
  await fsyncDirectory(path.dirname(target));
}

/**
 * Creates `target` with `text` only if no file has that name: a fsynced temp file is
 * hard-linked into place, so a reader never sees it half-written and an existing file
 * is never replaced. Resolves `false` when `target` already existed.
 */
export async function createFileExclusively(
  target: string,
  text: string,
  beforeCommit: () => void = () => {},
): Promise<boolean> {
  const temp = await writeTemp(target, text);
  try {
    beforeCommit();
    await link(temp, target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await unlink(temp).catch(() => {});
  }
  await fsyncDirectory(path.dirname(target));
  return true;
}
