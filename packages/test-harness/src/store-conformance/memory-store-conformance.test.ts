import { createMemoryStore } from '@teamkit/team-core/storage';
import { runStoreConformance } from './index.js';

runStoreConformance({ name: 'memory store', createStore: () => createMemoryStore() });
