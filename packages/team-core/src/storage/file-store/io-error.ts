import { errorMessage, isTeamkitError, TeamkitError } from '../../errors/index.js';

const ADVICE: Record<string, string> = {
  ENOSPC: 'The disk is full: free some space, then retry.',
  EDQUOT: 'The disk quota is used up: free some space or raise the quota, then retry.',
  EROFS:
    'The filesystem is read-only: remount it writable or point TEAMKIT_HOME at a writable folder.',
  EACCES:
    'Permission denied: check the owner and permissions of the Teamkit home and the files in it.',
  EPERM:
    'The operation is not permitted: check the owner, permissions and attributes (chattr) of the file.',
  EIO: 'The disk reported an I/O error: check the disk and the system log.',
  EMFILE: 'Too many open files in this process: raise the limit (ulimit -n) or close some.',
  ENFILE: 'Too many open files on this machine: close some, then retry.',
  EFBIG: 'The file is too large for this filesystem.',
  ENAMETOOLONG: 'The path is too long: use a shorter TEAMKIT_HOME.',
  EBUSY: 'The file is busy: retry in a moment.',
  ETXTBSY: 'The file is busy: retry in a moment.',
};

/** The errno code of a Node.js system error, if it is one. */
export function errnoOf(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Turns anything a filesystem call threw into a `TeamkitError` naming the key, the
 * errno code and what to do; a `TeamkitError` passes through unchanged. The store never
 * lets a raw Node.js error out.
 */
export function toStoreError(error: unknown, key: string, action: string): TeamkitError {
  if (isTeamkitError(error)) return error as TeamkitError;
  const code = errnoOf(error) ?? 'UNKNOWN';
  if (code === 'ELOOP') {
    return new TeamkitError(
      'PATH_TRAVERSAL',
      `Could not ${action} ${key}: a symlink is in the way (ELOOP). Teamkit never follows links inside its home; remove the link.`,
      { cause: error, details: { key, errno: code } },
    );
  }
  if (code === 'ENOTDIR' || code === 'EISDIR') {
    return new TeamkitError(
      'CORRUPT_DOCUMENT',
      `Could not ${action} ${key}: a ${code === 'EISDIR' ? 'folder' : 'file'} is where ${code === 'EISDIR' ? 'a file' : 'a folder'} should be (${code}). Move it aside.`,
      { cause: error, details: { key, errno: code } },
    );
  }
  const advice = ADVICE[code] ?? 'Retry; if it keeps failing, check the filesystem.';
  const reason = errorMessage(error);
  return new TeamkitError(
    'IO_ERROR',
    `Could not ${action} ${key} (${code}: ${reason}). ${advice}`,
    {
      cause: error,
      details: { key, errno: code },
    },
  );
}

/** Runs a synchronous filesystem step, turning what it throws into a store error. */
export function guarded<T>(key: string, action: string, step: () => T): T {
  try {
    return step();
  } catch (error) {
    throw toStoreError(error, key, action);
  }
}
