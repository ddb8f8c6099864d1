import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isTeamkitError, TeamkitError } from '../errors/index.js';
import { type Task, TaskSchema } from '../schema/task.js';
import { createFileStore } from './file-store/create-file-store.js';
import { createMemoryStore } from './memory-store/create-memory-store.js';
import { createDocument, putDocument, readDocument, updateDocument } from './store-documents.js';
import type { TeamkitStore } from './teamkit-store.js';
import { useTempFolder } from './test-support/workers.js';

let folder: string;
useTempFolder((created) => {
  folder = created;
});

const KEY = 'runtime/r/tasks/1.json';
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

describe.each([
  ['file store', () => createFileStore({ root: path.join(folder, 'home') })],
  ['memory store', () => createMemoryStore()],
] as const)('documents in the %s', (_, open: () => TeamkitStore) => {
  it('creates, reads and puts validated documents', async () => {
    const store = open();
    const created = await createDocument(store, KEY, TaskSchema, task);
    expect(await readDocument(store, KEY, TaskSchema)).toEqual({
      value: task,
      revision: created.revision,
    });
    await expect(createDocument(store, KEY, TaskSchema, task)).rejects.toMatchObject({
      code: 'ALREADY_EXISTS',
    });
    const put = await putDocument(store, KEY, TaskSchema, { ...task, subject: 'Put' });
    expect((await readDocument(store, KEY, TaskSchema))?.value.subject).toBe('Put');
    expect(put.revision).not.toBe(created.revision);
    expect(await readDocument(store, 'runtime/r/tasks/2.json', TaskSchema)).toBeUndefined();
  });

  it('refuses an invalid document before writing anything', async () => {
    const store = open();
    await expect(
      createDocument(store, KEY, TaskSchema, { ...task, status: 'nonsense' as Task['status'] }),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    expect(await store.read(KEY)).toBeUndefined();
  });

  it('reports a corrupt document and leaves it in place', async () => {
    const store = open();
    await store.put(KEY, '{"version":1,"id":');
    await expect(readDocument(store, KEY, TaskSchema)).rejects.toMatchObject({
      code: 'CORRUPT_DOCUMENT',
    });
    await expect(
      updateDocument(store, KEY, TaskSchema, (current) => current),
    ).rejects.toMatchObject({ code: 'CORRUPT_DOCUMENT' });
    expect((await store.read(KEY))?.text).toBe('{"version":1,"id":');
  });

  it('runs a pure mutation again after a conflict until it lands, counting exactly', async () => {
    const store = open();
    await createDocument(store, KEY, TaskSchema, task);
    const bump = () =>
      updateDocument(
        store,
        KEY,
        TaskSchema,
        (current) => ({ ...current, updatedAt: current.updatedAt + 1 }),
        { attempts: 100 },
      );
    await Promise.all(Array.from({ length: 25 }, bump));
    expect((await readDocument(store, KEY, TaskSchema))?.value.updatedAt).toBe(26);
  });

  it('writes nothing for a mutation that changes nothing, or one that refuses', async () => {
    const store = open();
    const created = await createDocument(store, KEY, TaskSchema, task);
    const same = await updateDocument(store, KEY, TaskSchema, (current) => current);
    expect(same.revision).toBe(created.revision);
    const refusal = new TeamkitError('ALREADY_CLAIMED', 'taken');
    await expect(
      updateDocument(store, KEY, TaskSchema, () => {
        throw refusal;
      }),
    ).rejects.toBe(refusal);
    expect((await store.read(KEY))?.revision).toBe(created.revision);
    await expect(
      updateDocument(store, 'runtime/r/tasks/9.json', TaskSchema, (current) => current),
    ).rejects.toMatchObject({ code: 'DOCUMENT_NOT_FOUND' });
  });

  it('gives up with REVISION_CONFLICT after its attempts', async () => {
    const store = open();
    await createDocument(store, KEY, TaskSchema, task);
    let runs = 0;
    const error = await updateDocument(
      store,
      KEY,
      TaskSchema,
      async (current) => {
        runs += 1;
        // Another writer always gets in between this read and its write.
        await store.put(KEY, JSON.stringify({ ...current, updatedAt: current.updatedAt + 1 }));
        return { ...current, subject: 'mine' };
      },
      { attempts: 3, random: () => 0 },
    ).catch((caught: unknown) => caught);
    expect(isTeamkitError(error, 'REVISION_CONFLICT')).toBe(true);
    expect(runs).toBe(3);
  });
});
