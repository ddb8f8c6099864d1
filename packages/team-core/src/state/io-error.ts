import { isTeamkitError, TeamkitError } from '../errors/index.js';

const ADVICE: Readonly<Record<string, string>> = {
  ENOSPC: 'The disk is full: free some space and try again.',
  EDQUOT: 'The disk quota is used up: free some space and try again.',
  EROFS: 'The Teamkit home is on a read-only filesystem: point TEAMKIT_HOME at a writable folder.',
  EACCES: 'Teamkit may not access a file in its home: check the owner and mode of the home.',
  EPERM: 'Teamkit may not access a file in its home: check the owner and mode of the home.',
  EIO: 'The disk reported a read or write error: check the disk.',
  EMFILE: 'The process ran out of file descriptors: close some files or raise the limit.',
  ENFILE: 'The system ran out of file descriptors: close some files or raise the limit.',
};

/**
 * Turns an error the filesystem raised (one with an errno code such as `ENOSPC`) into an
 * `IO_ERROR` that names the failed step and what to do; a TeamkitError, or anything that
 * is not a filesystem error, is returned unchanged.
 */
export function asIoError(error: unknown, what: string): unknown {
  if (isTeamkitError(error)) return error;
  const errno = (error as { code?: unknown } | null)?.code;
  if (typeof errno !== 'string' || !/^E[A-Z0-9]+$/.test(errno)) return error;
  const file = (error as { path?: unknown }).path;
  return new TeamkitError(
    'IO_ERROR',
    `${what} failed: ${errno}${typeof file === 'string' ? ` on ${file}` : ''}. ${ADVICE[errno] ?? 'Check the disk and the Teamkit home, then try again.'}`,
    {
      cause: error,
      details: { errno, ...(typeof file === 'string' ? { path: file } : {}) },
    },
  );
}

/** Runs a storage step, reporting filesystem errors as `IO_ERROR` (see {@link asIoError}). */
export function withIoErrors<T>(what: string, step: () => Promise<T>): Promise<T> {
  // A plain promise chain, not an async function: listings run this once per file.
  const fail = (error: unknown): never => {
    throw asIoError(error, what);
  };
  try {
    return step().catch(fail);
  } catch (error) {
    return Promise.reject(asIoError(error, what));
  }
}
