import { readFile } from 'node:fs/promises';
import type { z } from 'zod';
import { isTeamkitError, TeamkitError } from '../errors/index.js';
import { describeIssues } from '../schema/describe-issues.js';

/** The document version this release writes and understands. */
export const DOCUMENT_VERSION = 1;

/** A document that could not be read, kept in place and reported instead of replaced. */
export interface DocumentProblem {
  path: string;
  code: 'CORRUPT_DOCUMENT' | 'UNSUPPORTED_VERSION';
  message: string;
}

/**
 * Parses and validates the text of a persisted document. Torn or invalid JSON and
 * schema failures raise `CORRUPT_DOCUMENT`; a `version` newer than this release
 * raises `UNSUPPORTED_VERSION`. Nothing is written either way.
 */
export function parseDocument<S extends z.ZodType>(
  text: string,
  schema: S,
  where: string,
): z.infer<S> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new TeamkitError(
      'CORRUPT_DOCUMENT',
      `${where} is not valid JSON (torn or hand-edited); it was left in place. Fix or move it aside.`,
      { cause: error, details: { path: where } },
    );
  }
  const version = (raw as { version?: unknown } | null)?.version;
  if (typeof version === 'number' && version > DOCUMENT_VERSION) {
    throw new TeamkitError(
      'UNSUPPORTED_VERSION',
      `${where} has version ${version}; this Teamkit reads version ${DOCUMENT_VERSION}. Upgrade Teamkit to read it.`,
      { details: { path: where, version } },
    );
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issues = describeIssues(parsed.error);
    throw new TeamkitError(
      'CORRUPT_DOCUMENT',
      `${where} fails its schema (${issues.join('; ')}); it was left in place. Fix or move it aside.`,
      { details: { path: where, issues } },
    );
  }
  return parsed.data;
}

/**
 * Reads and validates a document; `undefined` when the file does not exist.
 * See {@link parseDocument} for the errors.
 */
export async function readDocumentFile<S extends z.ZodType>(
  file: string,
  schema: S,
): Promise<z.infer<S> | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
  return parseDocument(text, schema, file);
}

/** Serialises a document after validating it, so an invalid value is never written. */
export function serializeDocument<S extends z.ZodType>(
  value: z.input<S>,
  schema: S,
  where: string,
): string {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issues = describeIssues(parsed.error);
    throw new TeamkitError('INVALID_INPUT', `Refused to write ${where}: ${issues.join('; ')}.`, {
      details: { path: where, issues },
    });
  }
  return `${JSON.stringify(parsed.data, null, 2)}\n`;
}

/** Turns a read failure into a reportable problem, or rethrows anything else. */
export function toDocumentProblem(error: unknown, file: string): DocumentProblem {
  if (isTeamkitError(error, 'CORRUPT_DOCUMENT') || isTeamkitError(error, 'UNSUPPORTED_VERSION')) {
    return { path: file, code: error.code as DocumentProblem['code'], message: error.message };
  }
  throw error;
}
