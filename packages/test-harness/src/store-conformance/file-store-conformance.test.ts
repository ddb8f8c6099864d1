import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sourceNodeArgs } from '@teamkit/repo-testing';
import { createFileStore, type FileStore } from '@teamkit/team-core/storage';
import { runStoreConformance } from './index.js';

runStoreConformance({
  name: 'file store',
  async createStore() {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'teamkit-store-conformance-'));
    return createFileStore({ root: path.join(folder, 'home') });
  },
  async cleanup(store) {
    await rm(path.dirname((store as FileStore).root), { recursive: true, force: true });
  },
  processes: {
    module: fileURLToPath(new URL('./__fixtures__/open-file-store.mjs', import.meta.url)),
    config: (store) => ({ root: (store as FileStore).root }),
    nodeArgs: sourceNodeArgs(),
  },
});
