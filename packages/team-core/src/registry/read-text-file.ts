import { open, stat } from 'node:fs/promises';
import { TeamkitError, type TeamkitErrorCode } from '../errors/index.js';
import { resolveContainedRealPath } from '../storage/index.js';

/** The largest manifest, policy, agent file, team doc or config source Teamkit reads. */
export const MAX_REGISTRY_FILE_BYTES = 256 * 1024;

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads a UTF-8 text file of at most `maxBytes`, or `undefined` when it does not exist.
 * Refuses (with `code`) anything that is not a regular file, so a FIFO or device can
 * never block or flood the loader, and files over the cap before reading them whole.
 */
export async function readTextFile(
  file: string,
  code: TeamkitErrorCode,
  maxBytes = MAX_REGISTRY_FILE_BYTES,
): Promise<string | undefined> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(file);
  } catch (error) {
    const errno = (error as NodeJS.ErrnoException).code;
    if (errno === 'ENOENT' || errno === 'ENOTDIR') return undefined;
    throw new TeamkitError(code, `${file} cannot be read (${errno ?? 'unknown error'}).`, {
      cause: error,
      details: { path: file },
    });
  }
  if (!info.isFile()) {
    throw new TeamkitError(code, `${file} is not a regular file.`, { details: { path: file } });
  }
  if (info.size > maxBytes) {
    throw new TeamkitError(code, `${file} is ${info.size} bytes; the limit is ${maxBytes} bytes.`, {
      details: { path: file, size: info.size, maxBytes },
    });
  }
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    const errno = (error as NodeJS.ErrnoException).code;
    throw new TeamkitError(code, `${file} cannot be read (${errno ?? 'unknown error'}).`, {
      cause: error,
      details: { path: file },
    });
  }
  let bytes: Buffer;
  try {
    // Read one byte past the cap: the file may have grown since stat.
    const buffer = Buffer.alloc(maxBytes + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > maxBytes) {
        throw new TeamkitError(code, `${file} is over the limit of ${maxBytes} bytes.`, {
          details: { path: file, maxBytes },
        });
      }
    }
    bytes = buffer.subarray(0, length);
  } finally {
    await handle.close();
  }
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch (error) {
    throw new TeamkitError(code, `${file} is not valid UTF-8 text.`, {
      cause: error,
      details: { path: file },
    });
  }
  return text.startsWith('\uFEFF') ? text.slice(1) : text;
}

/**
 * Reads `name` from `folder` after checking that its real location (symlinks resolved)
 * stays inside the real `folder`: a file that escapes is refused with `PATH_TRAVERSAL`.
 */
export async function readContainedTextFile(
  folder: string,
  name: string,
  code: TeamkitErrorCode,
): Promise<{ path: string; text: string } | undefined> {
  const file = await resolveContainedRealPath(folder, name);
  const text = await readTextFile(file, code);
  return text === undefined ? undefined : { path: file, text };
}
