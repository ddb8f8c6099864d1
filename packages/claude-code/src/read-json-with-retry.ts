import { readFile } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';

/** What reading one of Claude Code's JSON files gave. */
export type JsonFileRead =
  | { readonly kind: 'ok'; readonly value: unknown; readonly text: string }
  | { readonly kind: 'missing' }
  | { readonly kind: 'unreadable'; readonly reason: string };

/** How hard {@link readJsonWithRetry} tries before calling a file torn. */
export interface TornReadRetry {
  /** Reads in all, the first included. Default 6. */
  attempts?: number;
  /** Wait before the second read, doubled for each further one. Default 10 ms. */
  delayMs?: number;
}

/**
 * Reads and parses a JSON file that another program may be rewriting in place.
 * Claude Code writes task and config files with a plain truncate-and-write, so a read
 * can catch an empty or half-written file; such a read is tried again a few times
 * before the file is reported as unreadable. A missing file is `missing`, never an error.
 */
export async function readJsonWithRetry(
  file: string,
  retry: TornReadRetry = {},
): Promise<JsonFileRead> {
  const attempts = Math.max(1, retry.attempts ?? 6);
  let wait = retry.delayMs ?? 10;
  let reason = '';
  for (let attempt = 1; attempt <= attempts; attempt += 1) {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
      return { kind: 'unreadable', reason: `${code ?? 'error'}: ${(error as Error).message}` };
    }
    if (text.trim() === '') {
      reason = 'the file is empty';
    } else {
      try {
        return { kind: 'ok', value: JSON.parse(text), text };
      } catch (error) {
        reason = `not JSON (${(error as Error).message})`;
      }
    }
    if (attempt < attempts) {
      await delay(wait);
      wait *= 2;
    }
  }
  return { kind: 'unreadable', reason: `${reason}, ${attempts} reads in a row` };
}
