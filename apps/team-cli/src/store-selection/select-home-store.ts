import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { TeamkitStore } from '@teamkit/team-core/storage';
import type { CommandContext } from '../command-context.js';
import { createLazyFileStore } from './lazy-file-store.js';
import type { StoreSelection } from './store-selection.js';
import { STORE_VARIABLE } from './store-variables.js';

/**
 * Whether the home's global config could set `store.url` or `store.credsFile` (dotted or
 * nested, both spell "store"); an unreadable one goes to the full settings load, which
 * reports it.
 */
async function mayNameStore(home: string): Promise<boolean> {
  try {
    return (await readFile(path.join(home, 'config.json'), 'utf8')).includes('store');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}

/** The store a command opened for its home, and how to let it go when the command ends. */
export interface SelectedStore {
  readonly selection: StoreSelection;
  /** The store that holds the runs of the home: every part of the command uses this one. */
  readonly store: TeamkitStore;
  close(): Promise<void>;
}

/** The file store of `home`, opened on first use, as a {@link SelectedStore}. */
export function homeFileStore(
  home: string,
  selection: StoreSelection = { kind: 'file', source: 'default' },
): SelectedStore {
  const store = createLazyFileStore(home);
  return { selection, store, close: () => store.close() };
}

/**
 * Opens the store that holds the runs of the command's home: the one place the CLI picks
 * it (the command passes it down through its context). The file store is opened on first
 * use; a NATS server is connected here, so a server that cannot be reached fails the
 * command with `STORE_UNAVAILABLE` before it does anything.
 */
export async function selectHomeStore(
  context: Pick<CommandContext, 'home' | 'env'>,
): Promise<SelectedStore> {
  if (!context.env[STORE_VARIABLE] && !(await mayNameStore(context.home))) {
    // The common case, kept cheap: no variable, and a config that cannot name a store.
    return homeFileStore(context.home);
  }
  const { loadCliSettings } = await import('../cli-settings.js');
  const { readStoreSelection } = await import('./store-selection.js');
  const settings = await loadCliSettings(context);
  const selection = await readStoreSelection(
    {
      url: settings['store.url'],
      credsFile: settings['store.credsFile'],
      replicas: settings['store.replicas'],
    },
    context.env,
  );
  if (selection.kind === 'file') return homeFileStore(context.home, selection);
  const { createNatsStore } = await import('@teamkit/store-nats');
  const store = await createNatsStore({ ...selection.options, name: 'teamkit-cli' });
  return { selection, store, close: () => store.close() };
}
