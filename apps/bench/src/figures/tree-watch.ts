import { renameSync, watch as watchFolder } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createFileStore } from '@teamkit/team-core/storage';
import { watch as chokidarWatch } from 'chokidar';
import { watchTreeWithChokidar } from '../baselines/chokidar-tree-watch.js';
import type { Contender, FigureDefinition, RoundSettings } from '../figure.js';
import { percentile } from '../statistics.js';

/** Sizes of the tree watch figure. */
export interface TreeWatchSettings extends RoundSettings {
  /** Run folders in the watched tree, each with a task folder. */
  runs: number;
  /** Task files in each run's task folder (and files in the single watched folder). */
  filesPerFolder: number;
  eventsPerRound: number;
  eventTimeoutMs: number;
}

/** A watcher under test: reports the `/`-separated path of each file it saw change. */
interface TreeSubject {
  start(onPath: (rel: string) => void): Promise<void>;
  close(): Promise<void>;
}

// Far beyond a round: the figure measures file events, never the timed comparison.
const NO_RECONCILE_MS = 600_000;
const DOCUMENT = JSON.stringify({ version: 1, subject: 'a task of the bench', status: 'pending' });

/** The folders one event writes in: every run's task folder, or the one folder. */
async function seed(root: string, folders: string[], files: number): Promise<void> {
  for (const folder of folders) {
    await mkdir(path.join(root, folder), { recursive: true });
    for (let file = 1; file <= files; file++) {
      await writeFile(path.join(root, folder, `${file}.json`), DOCUMENT);
    }
  }
}

function treeContender(
  key: string,
  label: string,
  subject: TreeSubject,
  root: string,
  folders: string[],
  settings: TreeWatchSettings,
): Contender {
  const waiting = new Map<string, (arrivedAt: number) => void>();
  let sequence = 0;
  return {
    key,
    label,
    unit: 'ms p99',
    better: 'lower',
    async setup() {
      await seed(root, folders, settings.filesPerFolder);
      await subject.start((rel) => {
        const arrivedAt = performance.now();
        waiting.get(rel)?.(arrivedAt);
        waiting.delete(rel);
      });
    },
    async runRound() {
      const latencies: number[] = [];
      const cpuBefore = process.cpuUsage();
      for (let event = 0; event < settings.eventsPerRound; event++) {
        sequence += 1;
        const folder = folders[sequence % folders.length] as string;
        // Every other event replaces a document (an update), the others add one (a send).
        const name =
          sequence % 2 === 0
            ? `${(sequence % settings.filesPerFolder) + 1}.json`
            : `new-${sequence}.json`;
        const rel = `${folder}/${name}`;
        const temp = path.join(root, folder, `.tmp-${sequence}`);
        await writeFile(temp, `${DOCUMENT}\n${sequence}`);
        let timer: NodeJS.Timeout | undefined;
        const arrival = new Promise<number>((resolve, reject) => {
          waiting.set(rel, resolve);
          timer = setTimeout(() => {
            waiting.delete(rel);
            reject(
              new Error(`${label}: no callback for ${rel} within ${settings.eventTimeoutMs} ms`),
            );
          }, settings.eventTimeoutMs);
        });
        try {
          const startedAt = performance.now();
          renameSync(temp, path.join(root, rel));
          latencies.push((await arrival) - startedAt);
        } finally {
          clearTimeout(timer);
        }
      }
      const cpu = process.cpuUsage(cpuBefore);
      return {
        value: percentile(latencies, 99),
        extra: {
          p50: percentile(latencies, 50),
          // This process's CPU ms per event. The writer's share is the same for every
          // contender; the rest is the watcher's.
          'cpu/event': (cpu.user + cpu.system) / 1_000 / settings.eventsPerRound,
        },
      };
    },
    async teardown() {
      await subject.close();
    },
  };
}

const runFolders = (settings: TreeWatchSettings) =>
  Array.from({ length: settings.runs }, (_, run) => `runtime/run-${run}/tasks`);

/** The file store's prefix watch (`fs.watch` on each folder) on a home's `runtime` tree. */
function storeTreeSubject(root: string): TreeSubject {
  const store = createFileStore({ root });
  let stop: (() => Promise<void>) | undefined;
  return {
    async start(onPath) {
      stop = await store.watch(
        'runtime',
        (changes) => {
          for (const change of changes) onPath(change.key);
        },
        { reconcileIntervalMs: NO_RECONCILE_MS },
      );
    },
    async close() {
      await stop?.();
      await store.close();
    },
  };
}

/** The same tree watch written on chokidar: the same comparisons, chokidar's events. */
function chokidarTreeSubject(root: string): TreeSubject {
  let stop: (() => Promise<void>) | undefined;
  return {
    async start(onPath) {
      stop = await watchTreeWithChokidar(
        {
          folder: path.join(root, 'runtime'),
          prefix: 'runtime',
          reconcileIntervalMs: NO_RECONCILE_MS,
          onError: undefined,
        },
        (changes) => {
          for (const change of changes) onPath(change.key);
        },
      );
    },
    close: async () => stop?.(),
  };
}

/** chokidar on the same folder without recursion (`depth: 0`). */
function chokidarFolderSubject(root: string, folder: string): TreeSubject {
  let watcher: ReturnType<typeof chokidarWatch> | undefined;
  return {
    async start(onPath) {
      const opened = chokidarWatch(path.join(root, folder), {
        ignoreInitial: true,
        depth: 0,
        atomic: false,
      });
      watcher = opened;
      opened.on('all', (_event, file) => {
        const name = path.basename(file);
        if (!name.startsWith('.')) onPath(`${folder}/${name}`);
      });
      opened.on('error', () => {});
      await new Promise<void>((resolve) => opened.once('ready', resolve));
    },
    close: async () => watcher?.close(),
  };
}

/** A bare `fs.watch` on one folder: how the Claude Code watch holds each of its folders. */
function fsWatchFolderSubject(root: string, folder: string): TreeSubject {
  let close: (() => void) | undefined;
  return {
    async start(onPath) {
      const watcher = watchFolder(path.join(root, folder), (_event, name) => {
        if (name !== null && !name.startsWith('.')) onPath(`${folder}/${name}`);
      });
      watcher.on('error', () => {});
      close = () => watcher.close();
    },
    close: async () => close?.(),
  };
}

/**
 * From a rename into a watched tree to the watcher's callback, and the process's CPU per
 * event: the file store's tree watch (`fs.watch` on each folder) against the same watch
 * written on chokidar, and a bare `fs.watch` on one folder (the Claude Code watch) against
 * chokidar there. A target not met says chokidar has become the faster choice.
 */
export const treeWatchFigure: FigureDefinition<TreeWatchSettings> = {
  id: 'tree-watch',
  title: 'tree watch latency, rename -> callback: fs.watch vs chokidar',
  headline: 'tree watch p99',
  settings: (quick) =>
    quick
      ? {
          warmup: 1,
          rounds: 3,
          runs: 10,
          filesPerFolder: 40,
          eventsPerRound: 60,
          eventTimeoutMs: 10_000,
        }
      : {
          warmup: 1,
          rounds: 5,
          runs: 40,
          filesPerFolder: 200,
          eventsPerRound: 200,
          eventTimeoutMs: 10_000,
        },
  async ours({ settings, folder }) {
    const tree = await folder('store-fs-watch');
    const single = await folder('folder-fs-watch');
    return [
      treeContender(
        'ours',
        'file store watch (fs.watch per folder)',
        storeTreeSubject(tree),
        tree,
        runFolders(settings),
        settings,
      ),
      treeContender(
        'ours-folder',
        'fs.watch on one folder (Claude Code watch)',
        fsWatchFolderSubject(single, 'inboxes'),
        single,
        ['inboxes'],
        settings,
      ),
    ];
  },
  async baselines({ settings, folder }) {
    const tree = await folder('store-chokidar');
    const single = await folder('folder-chokidar');
    return [
      treeContender(
        'chokidar',
        'the same tree watch on chokidar',
        chokidarTreeSubject(tree),
        tree,
        runFolders(settings),
        settings,
      ),
      treeContender(
        'chokidar-folder',
        'chokidar on one folder',
        chokidarFolderSubject(single, 'inboxes'),
        single,
        ['inboxes'],
        settings,
      ),
    ];
  },
  ratios: [
    {
      label: 'chokidar tree watch p99',
      numerator: 'ours',
      denominator: 'chokidar',
      target: { op: '<=', value: 1 },
    },
    { label: 'chokidar tree watch p50', numerator: 'ours#p50', denominator: 'chokidar#p50' },
    {
      label: 'chokidar tree watch CPU/event',
      numerator: 'ours#cpu/event',
      denominator: 'chokidar#cpu/event',
      target: { op: '<=', value: 1 },
    },
    {
      label: 'chokidar folder p99',
      numerator: 'ours-folder',
      denominator: 'chokidar-folder',
      target: { op: '<=', value: 1 },
    },
    {
      label: 'chokidar folder p50',
      numerator: 'ours-folder#p50',
      denominator: 'chokidar-folder#p50',
    },
    {
      label: 'chokidar folder CPU/event',
      numerator: 'ours-folder#cpu/event',
      denominator: 'chokidar-folder#cpu/event',
      target: { op: '<=', value: 1 },
    },
  ],
};
