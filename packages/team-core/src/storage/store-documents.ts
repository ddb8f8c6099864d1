import { setTimeout as delay } from 'node:timers/promises';
import type { z } from 'zod';
import { isTeamkitError, TeamkitError } from '../errors/index.js';
import { parseDocument, serializeDocument } from './document.js';
import type { StoreKey, StoreRevision, TeamkitStore } from './teamkit-store.js';

/** A validated document and the revision it was read at. */
export interface StoredDocument<T> {
  value: T;
  revision: StoreRevision;
}

/** What {@link updateDocument} did: the document now stored, what it replaced, whether it wrote. */
export interface UpdatedDocument<T> extends StoredDocument<T> {
  /** The document the winning round read (the value itself when nothing was written). */
  previous: T;
  /** False when the mutation left the document as it was and nothing was written. */
  changed: boolean;
}

/** Options of {@link updateDocument}. */
export interface UpdateDocumentOptions {
  /** How many read-mutate-write rounds before giving up with `REVISION_CONFLICT`; default 16. */
  attempts?: number;
  /** Jitter source for the backoff between rounds; defaults to `Math.random`. */
  random?: () => number;
  /**
   * Runs after the mutation, just before the compare-and-set, each round. A seam for
   * tests that stall a writer at its most exposed point; nothing in Teamkit sets it.
   */
  beforeCommit?: () => void | Promise<void>;
}

const DEFAULT_ATTEMPTS = 16;

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
 * that returns `undefined` or changes nothing writes nothing. Absent: `DOCUMENT_NOT_FOUND`.
 */
export async function updateDocument<S extends z.ZodType>(
  store: TeamkitStore,
  key: StoreKey,
  schema: S,
  mutate: (current: z.infer<S>) => z.input<S> | undefined | Promise<z.input<S> | undefined>,
  options: UpdateDocumentOptions = {},
): Promise<UpdatedDocument<z.infer<S>>> {
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
    const next = await mutate(structuredClone(current));
    const unchanged = {
      value: current,
      revision: stored.revision,
      previous: current,
      changed: false,
    };
    if (next === undefined) return unchanged;
    const text = serializeDocument(next, schema, key);
    if (text === stored.text) return unchanged;
    await options.beforeCommit?.();
    try {
      const revision = await store.update(key, text, stored.revision);
      return { value: JSON.parse(text) as z.infer<S>, revision, previous: current, changed: true };
    } catch (error) {
      if (!isTeamkitError(error, 'REVISION_CONFLICT') || attempt >= attempts) throw error;
    }
    const ceiling = Math.min(2 ** attempt, 64);
    await delay(ceiling / 2 + random() * (ceiling / 2));
  }
}
