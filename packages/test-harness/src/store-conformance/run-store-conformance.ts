import type { TeamkitStore } from '@teamkit/team-core/storage';
import { describe, it } from 'vitest';
import type { ConformanceCases } from './conformance-context.js';
import { registerEntryCases } from './entry-cases.js';
import { registerLogLockWatchCases } from './log-lock-cases.js';
import { registerProcessCases } from './process-cases.js';
import { type StoreProcess, startStoreProcess } from './store-process.js';
import { registerValueCases } from './value-cases.js';

/** How the suite opens the store under test in other processes. */
export interface StoreProcessOptions {
  /**
   * A module (absolute path or `file:` URL) exporting `openStore(config)`, which opens a
   * store in a fresh Node.js process. It runs as plain JavaScript, so point it at built code.
   */
  module: string;
  /** The JSON-serialisable `config` that opens the same store as `store` does. */
  config(store: TeamkitStore): unknown;
  /** Node.js arguments of each worker process (a loader, conditions); none when omitted. */
  nodeArgs?: readonly string[];
}

/** Options of {@link runStoreConformance}. */
export interface StoreConformanceOptions {
  /** Names the suite, e.g. `file store`. */
  name: string;
  /** A fresh, empty store; called once per case. */
  createStore(): Promise<TeamkitStore> | TeamkitStore;
  /** Releases what `createStore` made (a temp folder, a server); the store is closed first. */
  cleanup?(store: TeamkitStore): Promise<void> | void;
  /**
   * For stores another process can open (the file store, a networked store): the
   * multi-process cases run only with this; without it they are skipped, saying why.
   */
  processes?: StoreProcessOptions;
  /** The timeout of each case in milliseconds; 60000 when omitted. */
  timeoutMs?: number;
}

/**
 * Registers a vitest suite that checks a `TeamkitStore` against the contract the
 * mailbox, the task list and the run state build on: revisions and compare-and-set (one
 * winner among concurrent updaters, a stale revision always refused), create-if-absent
 * races, entries moving exactly once, exact admission under concurrency, markers, logs,
 * locks, watches and bad keys; with `processes`, the same races between real processes,
 * including writers frozen with SIGSTOP. Call it at the top level of a test file.
 */
export function runStoreConformance(options: StoreConformanceOptions): void {
  const timeoutMs = options.timeoutMs ?? 60_000;

  const withStore = async <T>(body: (store: TeamkitStore) => Promise<T>): Promise<T> => {
    const store = await options.createStore();
    try {
      return await body(store);
    } finally {
      await store.close();
      await options.cleanup?.(store);
    }
  };

  const cases: ConformanceCases = {
    storeCase: (title, body) =>
      it(title, (context) => withStore((store) => body(store, context)), timeoutMs),
    processCase: (title, count, body) =>
      it(
        title,
        async (context) => {
          const processes = options.processes;
          if (processes === undefined) {
            return context.skip(`${options.name} cannot be opened from another process`);
          }
          await withStore(async (store) => {
            const config = processes.config(store);
            const started: StoreProcess[] = [];
            try {
              for (let index = 0; index < count; index += 1) {
                started.push(await startStoreProcess(processes.module, config, processes.nodeArgs));
              }
              await body(store, started, context);
            } finally {
              await Promise.all(started.map((worker) => worker.stop()));
            }
          });
        },
        timeoutMs,
      ),
  };

  describe(`${options.name}: store conformance`, () => {
    registerValueCases(cases);
    registerEntryCases(cases);
    registerLogLockWatchCases(cases);
    registerProcessCases(cases);
  });
}
