import fs from 'node:fs';
import path from 'node:path';
import { TeamkitError } from '../../errors/index.js';
import { storeKeySegments } from '../store-key.js';
import { assertLogLine } from '../stored-text.js';
import type { LogRead, ReadLogOptions } from '../teamkit-store.js';
import { toStoreError } from './io-error.js';
import { type FolderGuard, PRIVATE_FILE_MODE } from './private-folders.js';
import { openRegular, plantedLink, READ_FLAGS } from './regular-file.js';

const { O_APPEND, O_CREAT, O_RDWR } = fs.constants;
const DEFAULT_MAX_BYTES = 16 * 1024 * 1024;
const NEWLINE = 0x0a;
const decoder = new TextDecoder('utf-8', { fatal: true });

function parseCursor(cursor: string | undefined, key: string): number {
  if (cursor === undefined) return 0;
  if (/^[0-9]{1,15}$/.test(cursor)) return Number(cursor);
  throw new TeamkitError(
    'INVALID_INPUT',
    `${JSON.stringify(cursor)} is not a cursor of the file store's logs; pass the cursor readLog returned for ${key}.`,
    { details: { key, cursor: String(cursor) } },
  );
}

/** Splits whole lines out of `data`; lines that are not text are counted, not returned. */
function splitLines(data: Buffer): { lines: string[]; skipped: number } {
  const lines: string[] = [];
  let skipped = 0;
  let start = 0;
  for (let end = data.indexOf(NEWLINE); end !== -1; end = data.indexOf(NEWLINE, start)) {
    const raw = data.subarray(start, end);
    start = end + 1;
    if (raw.length === 0) continue;
    try {
      const line = decoder.decode(raw);
      if (line.includes('\0')) skipped += 1;
      else lines.push(line);
    } catch {
      skipped += 1;
    }
  }
  return { lines, skipped };
}

/** Append-only logs of the file store: one line per `write`, in a private file. */
export function createAppendLog(guard: FolderGuard) {
  function fileOf(key: string, create: boolean): string | undefined {
    const segments = storeKeySegments(key, 'log key');
    const folder = guard.folder(segments.slice(0, -1), create);
    return folder === undefined ? undefined : path.join(folder, segments.at(-1) as string);
  }

  return {
    async append(key: string, line: string): Promise<void> {
      assertLogLine(line, key);
      const file = fileOf(key, true) as string;
      const opened = openRegular(file, O_RDWR | O_APPEND | O_CREAT, key, PRIVATE_FILE_MODE);
      if (opened.kind === 'symlink') throw plantedLink(key, opened.target);
      if (opened.kind === 'absent') throw toStoreError(new Error('vanished'), key, 'append to');
      const { fd, info } = opened;
      try {
        if ((Number(info.mode) & 0o777) !== PRIVATE_FILE_MODE) fs.fchmodSync(fd, PRIVATE_FILE_MODE);
        const size = Number(info.size);
        // A line torn by a crash (or a full disk) is ended first, never continued: the
        // reader then skips one bad line instead of losing this good one.
        let lead = '';
        if (size > 0) {
          const last = Buffer.alloc(1);
          fs.readSync(fd, last, 0, 1, size - 1);
          if (last[0] !== NEWLINE) lead = '\n';
        }
        const data = Buffer.from(`${lead}${line}\n`, 'utf8');
        let written = 0;
        try {
          written = fs.writeSync(fd, data, 0, data.length);
          if (written !== data.length) {
            throw Object.assign(new Error('short write'), { code: 'ENOSPC' });
          }
        } catch (error) {
          // Take back a partial line if nothing was appended after it.
          if (written > 0 && Number(fs.fstatSync(fd).size) === size + written) {
            fs.ftruncateSync(fd, size);
          }
          throw error;
        }
      } catch (error) {
        throw toStoreError(error, key, 'append to');
      } finally {
        fs.closeSync(fd);
      }
    },

    async readLog(key: string, cursor?: string, options: ReadLogOptions = {}): Promise<LogRead> {
      const from = parseCursor(cursor, key);
      const maxBytes = Math.max(options.maxBytes ?? DEFAULT_MAX_BYTES, 1);
      const file = fileOf(key, false);
      const empty = { lines: [], skipped: 0, cursor: String(from), atEnd: true };
      if (file === undefined) return empty;
      const opened = openRegular(file, READ_FLAGS, key);
      if (opened.kind === 'absent') return empty;
      if (opened.kind === 'symlink') throw plantedLink(key, opened.target);
      const { fd, info } = opened;
      try {
        const size = Number(info.size);
        // A log shorter than the cursor was replaced: read it again from the start.
        let offset = from > size ? 0 : from;
        const result: LogRead = { lines: [], skipped: 0, cursor: String(offset), atEnd: true };
        while (offset < size) {
          const length = Math.min(size - offset, maxBytes);
          const data = Buffer.allocUnsafe(length);
          const read = fs.readSync(fd, data, 0, length, offset);
          const chunk = data.subarray(0, read);
          const lastNewline = chunk.lastIndexOf(NEWLINE);
          if (lastNewline === -1) {
            if (offset + read >= size) break;
            // One line longer than maxBytes: skip it whole rather than return a piece.
            result.skipped += 1;
            offset += read;
            while (offset < size) {
              const more = Buffer.allocUnsafe(Math.min(size - offset, maxBytes));
              const got = fs.readSync(fd, more, 0, more.length, offset);
              const end = more.subarray(0, got).indexOf(NEWLINE);
              offset += end === -1 ? got : end + 1;
              if (end !== -1 || got === 0) break;
            }
            result.cursor = String(offset);
            continue;
          }
          const { lines, skipped } = splitLines(chunk.subarray(0, lastNewline + 1));
          result.lines.push(...lines);
          result.skipped += skipped;
          offset += lastNewline + 1;
          result.cursor = String(offset);
          if (length === maxBytes && offset < size) {
            result.atEnd = false;
            break;
          }
        }
        return result;
      } catch (error) {
        throw toStoreError(error, key, 'read');
      } finally {
        fs.closeSync(fd);
      }
    },
  };
}
