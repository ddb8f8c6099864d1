import { createMemoryStore } from '@teamkit/team-core';
import { runStoreConformance } from './index.js';

runStoreConformance({ name: 'memory store', createStore: () => createMemoryStore() });
