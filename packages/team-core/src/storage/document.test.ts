import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isTeamkitError } from '../errors/index.js';
import { type Task, TaskSchema } from '../schema/task.js';
import { readDocumentFile, toDocumentProblem } from './document.js';
import { createFileStore } from './file-store/create-file-store.js';
import { createDocument, putDocument, readDocument } from './store-documents.js';
import { useTempFolder } from './test-support/workers.js';

let folder: string;
useTempFolder((created) => {
  folder = created;
});

const task: Task = {
  version: 1,
  id: '1',
  subject: 'First',
  description: '',
  status: 'pending',
  blocks: [],
  blockedBy: [],
  createdAt: 1,
  updatedAt: 1,
};
const store = () => createFileStore({ root: folder });

describe('reading documents', () => {
  it('round-trips a document through the store', async () => {
    const file = path.join(folder, 'tasks', '1.json');
    await putDocument(store(), 'tasks/1.json', TaskSchema, task);
    expect((await readDocument(store(), 'tasks/1.json', TaskSchema))?.value).toEqual(task);
    expect(await readDocumentFile(file, TaskSchema)).toEqual(task);
    expect(await readDocument(store(), 'missing.json', TaskSchema)).toBeUndefined();
  });

  it.each([
    ['torn JSON', JSON.stringify(task).slice(0, 40), 'CORRUPT_DOCUMENT'],
    ['empty text', '', 'CORRUPT_DOCUMENT'],
    ['JSON null', 'null', 'CORRUPT_DOCUMENT'],
    ['a schema failure', JSON.stringify({ ...task, status: 'done' }), 'CORRUPT_DOCUMENT'],
    [
      'version 2',
      JSON.stringify({ ...task, version: 2, status: 'new-in-v2' }),
      'UNSUPPORTED_VERSION',
    ],
  ] as const)('reports %s as %s and leaves the bytes alone', async (_, text, code) => {
    const file = path.join(folder, '1.json');
    await writeFile(file, text);
    for (const [read, where] of [
      [() => readDocument(store(), '1.json', TaskSchema), '1.json'],
      [() => readDocumentFile(file, TaskSchema), file],
    ] as const) {
      const error = await read().catch((caught: unknown) => caught as Error);
      expect(isTeamkitError(error, code)).toBe(true);
      expect((error as Error).message).toContain(where);
      expect(toDocumentProblem(error, where)).toEqual({
        path: where,
        code,
        message: (error as Error).message,
      });
    }
    expect(await readFile(file, 'utf8')).toBe(text);
    expect(await readdir(folder)).toEqual(['1.json']);
  });

  it('rethrows anything that is not a document problem', () => {
    const error = new Error('disk on fire');
    expect(() => toDocumentProblem(error, 'x')).toThrow(error);
  });
});

describe('writing documents', () => {
  it('refuses an invalid value with INVALID_INPUT and writes nothing', async () => {
    const file = path.join(folder, 'tasks', '1.json');
    const invalid = { ...task, status: 'done' } as unknown as Task;
    const error = await putDocument(store(), 'tasks/1.json', TaskSchema, invalid).catch(
      (caught: unknown) => caught as Error,
    );
    expect(isTeamkitError(error, 'INVALID_INPUT')).toBe(true);
    expect((error as Error).message).toContain('status');
    expect(await readdir(folder)).toEqual([]);

    await putDocument(store(), 'tasks/1.json', TaskSchema, task);
    const before = await readFile(file, 'utf8');
    for (const write of [
      () => putDocument(store(), 'tasks/1.json', TaskSchema, invalid),
      () => createDocument(store(), 'tasks/2.json', TaskSchema, invalid),
    ]) {
      const again = await write().catch((caught: unknown) => caught);
      expect(isTeamkitError(again, 'INVALID_INPUT')).toBe(true);
    }
    expect(await readFile(file, 'utf8')).toBe(before);
    expect((await readdir(path.join(folder, 'tasks'))).filter((name) => name !== '.rev')).toEqual([
      '1.json',
    ]);
  });

  it('creates a document only once', async () => {
    await createDocument(store(), '1.json', TaskSchema, task);
    const error = await createDocument(store(), '1.json', TaskSchema, {
      ...task,
      subject: 'Second',
    }).catch((caught: unknown) => caught);
    expect(isTeamkitError(error, 'ALREADY_EXISTS')).toBe(true);
    expect((await readDocument(store(), '1.json', TaskSchema))?.value).toEqual(task);
  });
});
