import type { z } from 'zod';
import { isTeamkitError, TeamkitError } from '../errors/index.js';
import { parseDocument, serializeDocument } from './document.js';
import type { StoreKey, StoreRevision, TeamkitStore } from './teamkit-store.js';

/** A validated document and the revision it was read at. */
export interface StoredDocument<T> {
  value: T;
  revision: StoreRevision;
}

/** Options of {@link updateDocument}. */
export interface UpdateDocumentOptions {
  /** How many read-mutate-write rounds before giving up with `REVISION_CONFLICT`; default 16. */
  attempts?: number;
  /** Jitter source for the backoff between rounds; defaults to `Math.random`. */
  random?: () => number;
}

const DEFAULT_ATTEMPTS = 16;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Reads and validates the JSON document at `key`; `undefined` when absent. Torn or
 * invalid JSON and schema failures are `CORRUPT_DOCUMENT` (the document is left in
 * place), a newer `version` is `UNSUPPORTED_VERSION`.
 */
export async function readDocument<S extends z.ZodType>(
  store: TeamkitStore,
  key: StoreKey,
  schema: S,
): Promise<StoredDocument<z.infer<S>> | undefined> {
  const stored = await store.read(key);
  if (stored === undefined) return undefined;
  return { value: parseDocument(stored.text, schema, key), revision: stored.revision };
}

/** Validates and creates a document that must not exist yet (`ALREADY_EXISTS`). */
export async function createDocument<S extends z.ZodType>(
  store: TeamkitStore,
  key: StoreKey,
  schema: S,
  value: z.input<S>,
): Promise<StoredDocument<z.infer<S>>> {
  const text = serializeDocument(value, schema, key);
  const revision = await store.create(key, text);
  return { value: JSON.parse(text) as z.infer<S>, revision };
}

/** Validates and writes a document unconditionally: for documents with one writer. */
export async function putDocument<S extends z.ZodType>(
  store: TeamkitStore,
  key: StoreKey,
  schema: S,
  value: z.input<S>,
): Promise<StoredDocument<z.infer<S>>> {
  const text = serializeDocument(value, schema, key);
  const revision = await store.put(key, text);
  return { value: JSON.parse(text) as z.infer<S>, revision };
}

/**
 * Read, `mutate`, validate, write at the revision read; when another writer got there
 * first (`REVISION_CONFLICT`), read again and run `mutate` again, up to `attempts` times
 * with jittered backoff. `mutate` must be a pure function of its input (it may run more
 * than once) and may throw a typed error to refuse; nothing is written then. A mutation
 * that changes nothing writes nothing. Absent: `DOCUMENT_NOT_FOUND`.
 */
export async function updateDocument<S extends z.ZodType>(
  store: TeamkitStore,
  key: StoreKey,
  schema: S,
  mutate: (current: z.infer<S>) => z.input<S> | Promise<z.input<S>>,
  options: UpdateDocumentOptions = {},
): Promise<StoredDocument<z.infer<S>>> {
  const attempts = Math.max(1, options.attempts ?? DEFAULT_ATTEMPTS);
  const random = options.random ?? Math.random;
  for (let attempt = 1; ; attempt += 1) {
    const stored = await store.read(key);
    if (stored === undefined) {
      throw new TeamkitError('DOCUMENT_NOT_FOUND', `${key} does not exist; nothing was written.`, {
        details: { key },
      });
    }
    const current = parseDocument(stored.text, schema, key);
    const text = serializeDocument(await mutate(structuredClone(current)), schema, key);
    if (text === stored.text) return { value: current, revision: stored.revision };
    try {
      const revision = await store.update(key, text, stored.revision);
      return { value: JSON.parse(text) as z.infer<S>, revision };
    } catch (error) {
      if (!isTeamkitError(error, 'REVISION_CONFLICT') || attempt >= attempts) throw error;
    }
    const ceiling = Math.min(2 ** attempt, 64);
    await pause(ceiling / 2 + random() * (ceiling / 2));
  }
}
