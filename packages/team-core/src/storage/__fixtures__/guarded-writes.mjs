// Writes guarded by a file lock, as lock holders in these tests make them: the lock is
// checked, then the file is replaced atomically.
import { readFile } from 'node:fs/promises';
import { serializeDocument, writeFileAtomically } from '@teamkit/team-core/storage';

export const guardedWrites = {
  async readText(file) {
    return readFile(file, 'utf8').catch((error) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
  },
  async writeText(file, text, lock) {
    lock?.assertHeld();
    await writeFileAtomically(file, text);
  },
  async writeDocument(file, schema, value, lock) {
    const text = serializeDocument(value, schema, file);
    lock?.assertHeld();
    await writeFileAtomically(file, text);
  },
};
